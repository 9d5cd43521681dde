/**
 * Expression analysis: what an answer depends on besides the config (and until when it holds), and the
 * diagnostics a careful user would want, located in the original text. It works on the tokens after
 * macro expansion, produced by the same lexer and expander the engine uses, and listens to the one parser
 * (grammar.ts): alone, with no link list computed, or beside evaluation in the same parse. Listening never
 * changes a result.
 */
import type { Diagnostic, ResolvedLink } from '../../schemas/index.js';
import type { AnalysisInput } from './analysis-input.js';
import { AnalysisReport } from './analysis-report.js';
import type { Dependency } from './analysis-report.js';
import { dependencyObserver } from './dependency-observer.js';
import { diagnosticObserver } from './diagnostic-observer.js';
import { parseTokens } from '../syntax/grammar.js';
import type { Semantics } from '../syntax/grammar.js';
import { observeBoth } from '../syntax/grammar-observer.js';
import type { GrammarObserver } from '../syntax/grammar-observer.js';
import { readExpression } from './read-expression.js';
import type { ReadOptions } from './read-expression.js';
import { engineCache } from '../engine-cache.js';
import {
  evaluateTokens,
  resolveIds,
  toResolvedLinks,
} from '../evaluate/resolve.js';
import { scanningSearchAtoms } from '../evaluate/search-patterns.js';
import { runAtOnce, runInSlices } from '../../util/slices.js';
import type { Sliced, SliceOptions } from '../../util/slices.js';
import type {
  FilterProtocolHandler,
  PreparedConfig,
  ResolveOptions,
} from '../types.js';

export type { Dependency, DependencyKind } from './analysis-report.js';

/** Options of {@link analyzeExpression}: the same clock and protocols that `resolve` would get. */
export interface AnalyzeOptions {
  /** Current time in ms since the epoch (default `Date.now()`). */
  now?: number;
  /** Custom filter protocol handlers by name; a name here overrides a built-in one. */
  handlers?: Readonly<Record<string, FilterProtocolHandler>>;
  /** Whether `:time:` and `:location:` are built in (default `true`). */
  builtinProtocols?: boolean;
}

/** What {@link analyzeExpression} finds. */
export interface ExpressionAnalysis {
  /**
   * Until when (ms since the epoch, exclusive) the answer for this prepared config cannot change without
   * a write: `Infinity` when it depends on nothing but the config; `now` when it may change on any call
   * (`*shuffle*`, custom handlers). For every clock value `t` with `now ≤ t < validUntil`, `resolve`
   * gives the same ids as at `now` (clock values in whole milliseconds, as `Date.now()` gives them).
   */
  readonly validUntil: number;
  /**
   * What the answer depends on besides the config, each with offsets into the original text (a
   * dependency inside a macro points at its `@name`). Only atoms and refiners that resolution reaches
   * are listed; the bound is conservative in one way: a reached atom counts even when later operators
   * discard what it selects.
   */
  readonly dependencies: readonly Dependency[];
  /** Problems and surprises, ordered by position (see `DiagnosticSchema`). */
  readonly diagnostics: readonly Diagnostic[];
}

/** Options of {@link resolveWithAnalysis}: those of `resolve`, and whether diagnostics are wanted. */
export interface ResolveWithAnalysisOptions extends ResolveOptions {
  /**
   * Whether to look for diagnostics (default `true`). With `false` none is looked for or formatted and
   * `analysis.diagnostics` is empty; `validUntil` and `dependencies` are the same.
   */
  diagnostics?: boolean;
}

/** The values of a parse that computes none: analysis alone. */
const NO_VALUES: Semantics<undefined> = {
  empty: undefined,
  atom: () => undefined,
  combine: () => undefined,
  refine: () => undefined,
  query: () => undefined,
};

/**
 * The options of one read, named field by field: an object spread of the caller's options here made every
 * analysis several times slower (V8 builds such an object far more slowly than a literal of known fields).
 */
function readOptions(
  options: AnalyzeOptions,
  read: Pick<ReadOptions, 'now' | 'diagnose' | 'report'>,
): ReadOptions {
  return {
    handlers: options.handlers,
    builtinProtocols: options.builtinProtocols,
    now: read.now,
    diagnose: read.diagnose,
    report: read.report,
  };
}

/** What listens to the parse of `input`: dependencies always, diagnostics when asked for. */
function observerOf(input: AnalysisInput, diagnose: boolean): GrammarObserver {
  const dependencies = dependencyObserver(input);
  return diagnose
    ? observeBoth(dependencies, diagnosticObserver(input))
    : dependencies;
}

/** The finished analysis of `report`. */
function finish(report: AnalysisReport, now: number): ExpressionAnalysis {
  return {
    validUntil: Math.max(now, report.validUntil),
    dependencies: report.dependencies,
    diagnostics: report.diagnostics(),
  };
}

/** The analysis of an input that broke the analysis itself: nothing known, nothing cacheable. */
function unknownAnalysis(now: number): ExpressionAnalysis {
  return { validUntil: now, dependencies: [], diagnostics: [] };
}

/**
 * Analyzes `expression` against a prepared config: until when its answer holds, what it depends on, and
 * its diagnostics. Cheap (one expansion, one tokenizing pass, one parse that computes no link list, a
 * binary search per time-dependent atom) and never throws. It does not change, or depend on, any result of
 * `resolve`.
 *
 * @example
 * const { validUntil, diagnostics } = analyzeExpression(prepared, '.nyc + :time:7d:', { now });
 * if (validUntil > now) cache.set(key, results, { until: validUntil });
 */
export function analyzeExpression(
  prepared: PreparedConfig,
  expression: string,
  options: AnalyzeOptions = {},
): ExpressionAnalysis {
  const now = options.now ?? Date.now();
  try {
    const report = new AnalysisReport();
    const input = readExpression(
      prepared,
      expression,
      readOptions(options, { now, diagnose: true, report }),
    );
    if (input !== null) {
      parseTokens(input.tokens, NO_VALUES, observerOf(input, true));
    }
    return finish(report, now);
  } catch {
    return unknownAnalysis(now);
  }
}

/**
 * `resolve` and {@link analyzeExpression} in one call and one parse: evaluation and analysis listen to the
 * same walk over the same tokens (what an uncached request needs: the answer, and whether and until when
 * it may be cached). The results are exactly those of `resolve` with the same options, the analysis that
 * of `analyzeExpression` (without diagnostics when `diagnostics: false`).
 */
export function resolveWithAnalysis(
  prepared: PreparedConfig,
  expression: string,
  options: ResolveWithAnalysisOptions = {},
): { results: ResolvedLink[]; analysis: ExpressionAnalysis } {
  const { ids, analysis } = resolveIdsWithAnalysis(
    prepared,
    expression,
    options,
  );
  return { results: toResolvedLinks(prepared, ids), analysis };
}

/** The selected ids, in result order, and the analysis of one resolution. */
export interface IdsWithAnalysis {
  readonly ids: string[];
  readonly analysis: ExpressionAnalysis;
}

/**
 * {@link resolveWithAnalysis} up to the selected ids, in result order (`toResolvedLinks` makes them the
 * results), for callers that may never need the result objects.
 */
export function resolveIdsWithAnalysis(
  prepared: PreparedConfig,
  expression: string,
  options: ResolveWithAnalysisOptions = {},
): IdsWithAnalysis {
  return runAtOnce(resolvingIdsWithAnalysis(prepared, expression, options));
}

/**
 * {@link resolveIdsWithAnalysis} sharing the event loop: the scans of its search patterns (the one part of
 * a resolution that grows with a config's links times a regular expression's cost) run in slices
 * (`util/slices.ts`) before the evaluation, which finds them made. The same answer.
 */
export function resolveIdsWithAnalysisInSlices(
  prepared: PreparedConfig,
  expression: string,
  options: ResolveWithAnalysisOptions & { readonly slices: SliceOptions },
): Promise<IdsWithAnalysis> {
  return runInSlices(
    resolvingIdsWithAnalysis(prepared, expression, options),
    options.slices,
  );
}

function* resolvingIdsWithAnalysis(
  prepared: PreparedConfig,
  expression: string,
  options: ResolveWithAnalysisOptions,
): Sliced<IdsWithAnalysis> {
  const now = options.now ?? Date.now();
  const withNow = { ...options, now };
  const diagnose = options.diagnostics ?? true;
  try {
    const report = new AnalysisReport();
    const input = readExpression(
      prepared,
      expression,
      readOptions(options, { now, diagnose, report }),
    );
    if (input === null) return { ids: [], analysis: finish(report, now) };
    const scans = yield* scanningSearchAtoms(
      { prepared, cache: engineCache(prepared), now },
      input.tokens,
    );
    const ids = evaluateTokens(prepared, input.tokens, {
      now,
      random: options.random,
      handlers: options.handlers,
      builtinProtocols: options.builtinProtocols,
      observer: observerOf(input, diagnose),
      scans,
    });
    return { ids, analysis: finish(report, now) };
  } catch {
    // Whichever side broke, each answers on its own as it would alone.
    const analysis = analyzeExpression(prepared, expression, withNow);
    return {
      ids: safeResolveIds(prepared, expression, withNow),
      analysis: diagnose ? analysis : { ...analysis, diagnostics: [] },
    };
  }
}

/** `resolveIds` as `resolve` uses it: nothing for an input it cannot use (it never throws). */
function safeResolveIds(
  prepared: PreparedConfig,
  expression: string,
  options: ResolveOptions,
): string[] {
  try {
    return resolveIds(prepared, expression, options);
  } catch {
    return [];
  }
}
