import { afterEach, describe, expect, it, vi } from 'vitest';
import { AnalysisReport } from './analyze/analysis-report.js';
import { analyzeExpression, resolveWithAnalysis } from './analyze/analyze.js';
import * as grammar from './syntax/grammar.js';
import { prepareConfig } from './prepare/prepare.js';
import { routeProtocol } from './protocols/dispatch.js';
import { refinerTraits } from './evaluate/refiners.js';
import { resolve } from './evaluate/resolve.js';
import { DAY, NOW, configOf } from './test-catalog.js';

vi.mock('./syntax/grammar.js', async (importOriginal) => {
  const original = await importOriginal<typeof grammar>();
  return { ...original, parseTokens: vi.fn(original.parseTokens) };
});

const config = prepareConfig(
  configOf(
    {
      a: { tags: ['x'], createdAt: NOW - DAY },
      b: { tags: ['x', 'y'], meta: { timestamp: NOW - 2 * DAY } },
      c: { tags: ['y'] },
    },
    {
      macros: { m: { linkItems: '.x | .y' }, f: { linkItems: '@f @f @f' } },
      searchPatterns: {
        aged: { pattern: '^[ab]$', options: { age: '3d', fields: 'k' } },
      },
    },
  ),
);

const EXPRESSIONS = [
  '.x | .y *sort:id*',
  '@m - .y, :time:7d: *shuffle*',
  '.t1 + | .nope - zz a | .y',
  '( a , b ) c',
  '/aged/ *limit:-1* *toString*',
  ':constructor: | @nope',
  '@f',
  '   ',
];

afterEach(() => {
  vi.restoreAllMocks();
  vi.mocked(grammar.parseTokens).mockClear();
});

describe('one parse for resolution and analysis', () => {
  it('resolveWithAnalysis parses the tokens once', () => {
    resolveWithAnalysis(config, '.x | (a + .y) *sort* , :time:7d:', {
      now: NOW,
    });
    expect(grammar.parseTokens).toHaveBeenCalledTimes(1);
  });

  it('without diagnostics: the same results, validUntil and dependencies, and no diagnostic made', () => {
    const made = vi.spyOn(AnalysisReport.prototype, 'diagnostic');
    for (const expression of EXPRESSIONS) {
      const full = resolveWithAnalysis(config, expression, { now: NOW });
      made.mockClear();
      const lean = resolveWithAnalysis(config, expression, {
        now: NOW,
        diagnostics: false,
      });
      expect(made).not.toHaveBeenCalled();
      expect(lean.results).toEqual(full.results);
      expect(lean.results).toEqual(resolve(config, expression, { now: NOW }));
      expect(lean.analysis).toEqual({ ...full.analysis, diagnostics: [] });
      expect(full.analysis).toEqual(
        analyzeExpression(config, expression, { now: NOW }),
      );
    }
  });

  it('a random source that throws: no results, and the analysis still complete', () => {
    const random = (): number => {
      throw new Error('no entropy');
    };
    const both = resolveWithAnalysis(config, '.x *shuffle* | zz', {
      now: NOW,
      random,
    });
    expect(both.results).toEqual([]);
    expect(both.analysis).toEqual(
      analyzeExpression(config, '.x *shuffle* | zz', { now: NOW }),
    );
  });
});

describe('one table of refiners and of protocols', () => {
  it('knows only its own names, not those an object inherits', () => {
    expect(refinerTraits('limit')).toMatchObject({
      argument: 'non-negative count',
    });
    expect(refinerTraits('shuffle')).toMatchObject({ random: true });
    expect(refinerTraits('toString')).toBeUndefined();
    const none = new Map();
    expect(routeProtocol('constructor', none, true)).toEqual({ kind: 'none' });
    expect(routeProtocol('time', none, true)).toEqual({
      kind: 'builtin',
      name: 'time',
    });
    expect(routeProtocol('location', none, false)).toEqual({
      kind: 'builtin-off',
    });
    const handler = (): boolean => true;
    expect(routeProtocol('time', new Map([['time', handler]]), false)).toEqual({
      kind: 'handler',
      handler,
    });
  });
});
