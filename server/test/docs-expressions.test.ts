/**
 * Runs every example of the expression guide (docs/expressions.md) and of the reference
 * (docs/expression-reference.md) against the demo config, so neither can drift from the engine:
 * `examples` blocks give `expression → ids`, `diagnostics` blocks give `expression → codes`, and each
 * document states the clock its examples assume.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { analyzeExpression, prepareConfig, resolve } from '@linkconfig/shared';
import { describe, expect, it } from 'vitest';
import { DEMO_CONFIG } from '../src/seed/demo-config.js';

/** A document of `docs/` by file name. */
const docPath = (name: string): string =>
  fileURLToPath(new URL(`../../docs/${name}`, import.meta.url));

/** One example line of the guide. */
interface Example {
  readonly kind: 'examples' | 'diagnostics';
  readonly expression: string;
  readonly expected: string;
  readonly line: number;
}

/** The fenced `examples` and `diagnostics` blocks of the guide, line by line. */
function parseGuide(text: string): Example[] {
  const out: Example[] = [];
  let kind: Example['kind'] | undefined;
  text.split('\n').forEach((raw, index) => {
    const fence = /^```(\w*)\s*$/.exec(raw);
    if (fence !== null) {
      const info = fence[1];
      kind =
        kind === undefined && (info === 'examples' || info === 'diagnostics')
          ? info
          : undefined;
      return;
    }
    if (kind === undefined || raw.trim() === '') return;
    const arrow = raw.indexOf('→');
    if (arrow === -1) {
      throw new Error(`line ${index + 1}: no "→" in an ${kind} block`);
    }
    out.push({
      kind,
      expression: raw.slice(0, arrow).trim(),
      expected: raw.slice(arrow + 1).trim(),
      line: index + 1,
    });
  });
  return out;
}

/** The clock the guide says its examples run with (`clock set to **YYYY-MM-DD HH:MM UTC**`). */
function guideClock(text: string): number {
  const match =
    /clock set to \*\*(\d{4}-\d{2}-\d{2}) (\d{2}:\d{2}) UTC\*\*/.exec(text);
  if (match === null) throw new Error('the guide does not state its clock');
  return Date.parse(`${match[1]}T${match[2]}:00Z`);
}

const prepared = prepareConfig(DEMO_CONFIG);

/** `a, b` → ['a', 'b']; `∅` and empty → []. */
const list = (cell: string): string[] =>
  cell === '∅' || cell === '' ? [] : cell.split(',').map((item) => item.trim());

/** The examples of one document, read once. */
function examplesOf(name: string): { now: number; examples: Example[] } {
  const text = readFileSync(docPath(name), 'utf8');
  return { now: guideClock(text), examples: parseGuide(text) };
}

/** Registers one test per example of a document. */
function runExamples(name: string, minimum: Record<Example['kind'], number>) {
  const { now, examples } = examplesOf(name);
  it('has examples of both kinds', () => {
    expect(
      examples.filter((e) => e.kind === 'examples').length,
    ).toBeGreaterThanOrEqual(minimum.examples);
    expect(
      examples.filter((e) => e.kind === 'diagnostics').length,
    ).toBeGreaterThanOrEqual(minimum.diagnostics);
  });

  it.each(examples.filter((e) => e.kind === 'examples'))(
    'line $line: $expression → $expected',
    ({ expression, expected }) => {
      const ids = resolve(prepared, expression, { now }).map((link) => link.id);
      const unordered = /^\{(.*)\}$/.exec(expected);
      if (unordered !== null) {
        expect([...ids].sort()).toEqual(list(unordered[1] ?? '').sort());
      } else {
        expect(ids).toEqual(list(expected));
      }
    },
  );

  it.each(examples.filter((e) => e.kind === 'diagnostics'))(
    'line $line: $expression reports $expected',
    ({ expression, expected }) => {
      const { diagnostics } = analyzeExpression(prepared, expression, { now });
      expect(diagnostics.map((d) => d.code)).toEqual(list(expected));
    },
  );
}

describe('docs/expressions.md', () => {
  runExamples('expressions.md', { examples: 61, diagnostics: 16 });
});

describe('docs/expression-reference.md', () => {
  runExamples('expression-reference.md', { examples: 30, diagnostics: 0 });
});
