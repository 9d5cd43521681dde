import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { analyzeConfig } from '../expression/analyze/analyze-config.js';
import { analyzeExpression } from '../expression/analyze/analyze.js';
import { prepareConfig } from '../expression/prepare/prepare.js';
import {
  CheckExpressionInputSchema,
  CheckExpressionOutputSchema,
} from './check.js';

const config = { allLinks: { 'new-york': { url: 'https://x' } } };

describe('CheckExpressionInputSchema', () => {
  it.each([
    { expression: '.nyc' },
    { expression: '.nyc', configName: 'demo' },
    { expression: '.nyc', configs: ['demo', config] },
    { config },
  ])('accepts %j', (input) => {
    expect(CheckExpressionInputSchema.safeParse(input).success).toBe(true);
  });

  it.each<[unknown, string]>([
    [{}, 'give either expression or config'],
    [{ expression: 'a', config }, 'give either expression or config, not both'],
    [
      { config, configName: 'demo' },
      'configName and configs go with expression, not with config',
    ],
    [{ expression: '' }, 'expression must not be empty'],
    [{ config: [] }, 'config must be a JSON object (an inline config)'],
  ])('rejects %j: %s', (input, message) => {
    const result = CheckExpressionInputSchema.safeParse(input);
    expect(result.success).toBe(false);
    // Messages name no field; the field path goes in front, as the server says it.
    const said = result.error?.issues.map((issue) =>
      [...issue.path.map(String), issue.message].join(' '),
    );
    expect(said).toContain(message);
  });

  it('documents both forms in one object schema', () => {
    const schema = z.toJSONSchema(CheckExpressionInputSchema, {
      io: 'input',
      unrepresentable: 'any',
    });
    expect(schema.type).toBe('object');
    expect(Object.keys(schema.properties ?? {})).toEqual([
      'expression',
      'configName',
      'configs',
      'config',
    ]);
    expect(schema.description).toContain('{ config }');
  });
});

describe('CheckExpressionOutputSchema', () => {
  it('accepts what the engine reports, for both forms', () => {
    const prepared = prepareConfig(config);
    const expression = analyzeExpression(prepared, '.nyc + | @x', { now: 0 });
    expect(
      CheckExpressionOutputSchema.safeParse({
        diagnostics: expression.diagnostics,
      }).success,
    ).toBe(true);
    expect(
      CheckExpressionOutputSchema.safeParse({
        diagnostics: analyzeConfig(config),
      }).success,
    ).toBe(true);
  });

  it('rejects an unknown code or a negative offset', () => {
    const base = { severity: 'error', message: 'm', start: 0, end: 1 };
    expect(
      CheckExpressionOutputSchema.safeParse({
        diagnostics: [{ ...base, code: 'nope' }],
      }).success,
    ).toBe(false);
    expect(
      CheckExpressionOutputSchema.safeParse({
        diagnostics: [{ ...base, code: 'unknown-id', start: -1 }],
      }).success,
    ).toBe(false);
  });
});
