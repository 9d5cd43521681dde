/**
 * Expression analysis: what an answer depends on besides the config (and until when it holds), and the
 * diagnostics a careful user would want, located in the original text. It works on the tokens after
 * macro expansion, produced by the same lexer and expander the engine uses, and walks them with the
 * evaluator's own grammar; it never evaluates a link list, so it cannot change any result.
 */
import type { Diagnostic } from '../schemas/index.js';
import { AnalysisReport } from './analysis-report.js';
import type { Dependency } from './analysis-report.js';
import { AnalysisWalk } from './analysis-walk.js';
import { engineCache } from './engine-cache.js';
import { MAX_TOKENS, tokenizeWithSpans } from './lexer.js';
import { expandWithSourceMap } from './macro-map.js';
import type { SourceSpan, SourceMap } from './macro-map.js';
import { MAX_EXPANDED_LENGTH } from './macros.js';
import { evaluateTokens, resolve, toResolvedLinks } from './resolve.js';
import type { ResolvedLink } from '../schemas/index.js';
import type { Token } from './token-kind.js';
import type {
  FilterProtocolHandler,
  PreparedConfig,
  ResolveOptions,
} from './types.js';
import { isWhitespace } from './whitespace.js';

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

/** The tokens `resolve` would evaluate, beside the analysis of them (`null`: resolve gives `∅` early). */
interface Analyzed {
  readonly analysis: ExpressionAnalysis;
  readonly tokens: readonly Token[] | null;
}

/** Start and end of `text` without the engine's whitespace around it. */
function trimmedRange(text: string): { start: number; end: number } {
  let start = 0;
  let end = text.length;
  while (start < end && isWhitespace(text.charCodeAt(start))) start++;
  while (end > start && isWhitespace(text.charCodeAt(end - 1))) end--;
  return { start, end };
}

/** Custom filter handlers as a map of own, callable entries only (as `resolve` reads them). */
function handlerMap(
  handlers: AnalyzeOptions['handlers'],
): Map<string, FilterProtocolHandler> {
  const map = new Map<string, FilterProtocolHandler>();
  if (handlers === undefined || handlers === null) return map;
  for (const name of Object.keys(handlers)) {
    const handler = handlers[name];
    if (typeof handler === 'function') map.set(name, handler);
  }
  return map;
}

/** The finished analysis of `report`. */
function finish(report: AnalysisReport, now: number): ExpressionAnalysis {
  return {
    validUntil: Math.max(now, report.validUntil),
    dependencies: report.dependencies,
    diagnostics: report.diagnostics(),
  };
}

/**
 * Diagnostics for text the tokenizer skipped (docs/expressions.md §8): one per piece, runs of plain
 * characters merged.
 */
function reportSkipped(
  report: AnalysisReport,
  input: { text: string; map: SourceMap; skipped: readonly [number, number][] },
): void {
  const { text, map } = input;
  let run: [number, number] | undefined;
  const flush = (): void => {
    if (run === undefined) return;
    const shown = text.slice(run[0], run[1]);
    const dash = /[\u2010-\u2015\u2212\ufe58\ufe63\uff0d]/.test(shown);
    report.diagnostic(
      'ignored-character',
      dash
        ? `${quoteText(shown)} is not the WITHOUT operator (only the ASCII \`-\` is): it is skipped and ends the word before it`
        : `${quoteText(shown)} is not part of the expression language: it is skipped and ends the word before it`,
      map.span(run[0], run[1]),
    );
    run = undefined;
  };
  for (const [start, end] of input.skipped) {
    const special = skippedMessage(text, start, end);
    if (special === undefined) {
      if (run !== undefined && run[1] === start) run[1] = end;
      else {
        flush();
        run = [start, end];
      }
      continue;
    }
    flush();
    report.diagnostic(special.code, special.message, map.span(start, end));
  }
  flush();
}

/** `text` in backticks, shortened when long. */
function quoteText(text: string): string {
  return text.length > 40 ? `\`${text.slice(0, 39)}…\`` : `\`${text}\``;
}

/** The message for a skipped piece that is an empty token or a leftover `@`; `undefined` for others. */
function skippedMessage(
  text: string,
  start: number,
  end: number,
):
  | {
      code: 'ignored-character' | 'macro-cycle';
      message: string;
    }
  | undefined {
  const piece = text.slice(start, end);
  switch (piece.charAt(0)) {
    case '@':
      return {
        code: 'macro-cycle',
        message:
          'this macro reference is still unexpanded after 10 rounds (a macro that refers to itself?), so the name after `@` is read as a link id',
      };
    case '.':
      return {
        code: 'ignored-character',
        message: '`.` without a tag name right after it is ignored',
      };
    case '#':
      return {
        code: 'ignored-character',
        message: '`#` without a name right after it is ignored',
      };
    case '/':
      return {
        code: 'ignored-character',
        message: 'an empty search pattern `//` is ignored',
      };
    case '*':
      return {
        code: 'ignored-character',
        message: 'an empty refiner is ignored',
      };
    case ':':
      return {
        code: 'ignored-character',
        message: 'an empty protocol is ignored',
      };
    default:
      return end - start > 1
        ? {
            code: 'ignored-character',
            message: `${quoteText(piece)} is ignored`,
          }
        : undefined;
  }
}

/** The analysis, and the tokens resolution would evaluate. Never throws. */
function analyze(
  prepared: PreparedConfig,
  expression: unknown,
  options: AnalyzeOptions,
): Analyzed {
  const now = options.now ?? Date.now();
  const report = new AnalysisReport();
  const none = (empty?: { span: SourceSpan; message: string }): Analyzed => {
    if (empty !== undefined) {
      report.diagnostic('empty-expression', empty.message, empty.span);
    }
    return { analysis: finish(report, now), tokens: null };
  };
  if (typeof expression !== 'string') return none();
  const { start, end } = trimmedRange(expression);
  const here = { start, end, macros: [] };
  if (start === end) {
    return none({
      span: { start: 0, end: expression.length, macros: [] },
      message: 'the expression is empty',
    });
  }
  const trimmed = expression.slice(start, end);
  const expansion = expandWithSourceMap(trimmed, prepared.macros, start);
  for (const ref of expansion.unknown) {
    report.diagnostic(
      'unknown-macro',
      ref.name === ''
        ? '`@` without a macro name is removed'
        : `unknown macro \`@${ref.name}\`: it is removed`,
      ref,
    );
  }
  if (expansion.text === null || expansion.overflow !== undefined) {
    const at = expansion.overflow?.at ?? here;
    if (expansion.overflow?.limit === 'tokens') {
      report.diagnostic(
        'token-limit',
        `the expanded expression has more than ${MAX_TOKENS} tokens (the limit is crossed here), so it selects nothing`,
        { ...at, end: Math.max(at.end, end) },
      );
    } else {
      report.diagnostic(
        'expansion-too-long',
        `macro expansion grows beyond ${MAX_EXPANDED_LENGTH} characters (here), so the expression selects nothing`,
        at,
      );
    }
    return { analysis: finish(report, now), tokens: null };
  }
  const text = expansion.text;
  if (text === '') {
    return none({
      span: here,
      message: 'nothing is left after macro expansion, so it selects nothing',
    });
  }
  const spanned = tokenizeWithSpans(text, MAX_TOKENS);
  const map = expansion.map;
  reportSkipped(report, { text, map, skipped: spanned.skipped });
  if (spanned.overflowAt !== undefined) {
    const at = map.span(spanned.overflowAt, spanned.overflowAt + 1);
    report.diagnostic(
      'token-limit',
      `the expression has more than ${MAX_TOKENS} tokens (the limit is crossed here), so it selects nothing`,
      { ...at, end: Math.max(at.end, end) },
    );
    return { analysis: finish(report, now), tokens: null };
  }
  if (spanned.tokens.length === 0) return none();
  new AnalysisWalk(
    {
      tokens: spanned.tokens,
      starts: spanned.starts,
      ends: spanned.ends,
      text,
      map,
      sourceEnd: end,
      cache: engineCache(prepared),
      handlers: handlerMap(options.handlers),
      builtinProtocols: options.builtinProtocols ?? true,
      now,
    },
    report,
  ).walk();
  return { analysis: finish(report, now), tokens: spanned.tokens };
}

/** The analysis of an input that broke the analysis itself: nothing known, nothing cacheable. */
function unknownAnalysis(now: number): ExpressionAnalysis {
  return { validUntil: now, dependencies: [], diagnostics: [] };
}

/**
 * Analyzes `expression` against a prepared config: until when its answer holds, what it depends on, and
 * its diagnostics. Cheap (one expansion, one tokenizing pass, one walk, a binary search per time-dependent
 * atom) and never throws. It does not change, or depend on, any result of `resolve`.
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
  try {
    return analyze(prepared, expression, options).analysis;
  } catch {
    return unknownAnalysis(options.now ?? Date.now());
  }
}

/**
 * `resolve` and {@link analyzeExpression} in one call, sharing the macro expansion and the tokens (what an
 * uncached request needs: the answer, and whether and until when it may be cached). The results are
 * exactly those of `resolve` with the same options.
 */
export function resolveWithAnalysis(
  prepared: PreparedConfig,
  expression: string,
  options: ResolveOptions = {},
): { results: ResolvedLink[]; analysis: ExpressionAnalysis } {
  const now = options.now ?? Date.now();
  const withNow = { ...options, now };
  let analyzed: Analyzed;
  try {
    analyzed = analyze(prepared, expression, withNow);
  } catch {
    return {
      results: resolve(prepared, expression, withNow),
      analysis: unknownAnalysis(now),
    };
  }
  const { tokens, analysis } = analyzed;
  if (tokens === null) return { results: [], analysis };
  try {
    return {
      results: toResolvedLinks(
        prepared,
        evaluateTokens(prepared, tokens, withNow),
      ),
      analysis,
    };
  } catch {
    return { results: [], analysis };
  }
}
