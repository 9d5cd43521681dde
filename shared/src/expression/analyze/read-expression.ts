/**
 * The steps of analysis before the parse (docs/expression-reference.md §1): trimming, macro expansion with
 * a source map, tokenizing with spans, each with its own diagnostics (when asked for). It gives what the
 * parse observers read, or `null` when resolution gives `∅` before parsing.
 */
import { AnalysisInput } from './analysis-input.js';
import type { AnalysisReport } from './analysis-report.js';
import { engineCache } from '../engine-cache.js';
import { handlerMap } from '../evaluate/eval-context.js';
import { MAX_TOKENS, tokenizeWithSpans } from '../syntax/lexer.js';
import { expandWithSourceMap } from '../macros/macro-map.js';
import type { SourceSpan } from '../macros/macro-map.js';
import { MAX_EXPANDED_LENGTH } from '../macros/macros.js';
import { reportSkipped } from './skipped-diagnostics.js';
import type { PreparedConfig, ResolveOptions } from '../types.js';
import { isWhitespace } from '../syntax/whitespace.js';

/** What reading needs: the resolution options, the clock read once, and whether to look for diagnostics. */
export interface ReadOptions extends Pick<
  ResolveOptions,
  'handlers' | 'builtinProtocols'
> {
  readonly now: number;
  readonly diagnose: boolean;
  /** Where findings go. */
  readonly report: AnalysisReport;
}

/** Start and end of `text` without the engine's whitespace around it. */
function trimmedRange(text: string): { start: number; end: number } {
  let start = 0;
  let end = text.length;
  while (start < end && isWhitespace(text.charCodeAt(start))) start++;
  while (end > start && isWhitespace(text.charCodeAt(end - 1))) end--;
  return { start, end };
}

/** Reports that the expression selects nothing before parsing: empty, or empty after expansion. */
function empty(
  options: ReadOptions,
  found: { span: SourceSpan; message: string },
): null {
  if (options.diagnose) {
    options.report.diagnostic('empty-expression', found.message, found.span);
  }
  return null;
}

/**
 * Reads `expression` as resolution would, reporting into `report`; the tokens with everything the parse
 * observers need, or `null` when resolution gives `∅` before parsing.
 */
export function readExpression(
  prepared: PreparedConfig,
  expression: unknown,
  options: ReadOptions,
): AnalysisInput | null {
  const { diagnose, report } = options;
  if (typeof expression !== 'string') return null;
  const { start, end } = trimmedRange(expression);
  const here = { start, end, macros: [] };
  if (start === end) {
    return empty(options, {
      span: { start: 0, end: expression.length, macros: [] },
      message: 'the expression is empty',
    });
  }
  const trimmed = expression.slice(start, end);
  const expansion = expandWithSourceMap(trimmed, prepared.macros, start);
  if (diagnose) {
    for (const ref of expansion.unknown) {
      report.diagnostic(
        'unknown-macro',
        ref.name === ''
          ? '`@` without a macro name is removed'
          : `unknown macro \`@${ref.name}\`: it is removed`,
        ref,
      );
    }
  }
  if (expansion.text === null || expansion.overflow !== undefined) {
    if (!diagnose) return null;
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
    return null;
  }
  const text = expansion.text;
  if (text === '') {
    return empty(options, {
      span: here,
      message: 'nothing is left after macro expansion, so it selects nothing',
    });
  }
  const spanned = tokenizeWithSpans(text, MAX_TOKENS);
  const map = expansion.map;
  if (diagnose) reportSkipped(report, { text, map, skipped: spanned.skipped });
  if (spanned.overflowAt !== undefined) {
    if (!diagnose) return null;
    const at = map.span(spanned.overflowAt, spanned.overflowAt + 1);
    report.diagnostic(
      'token-limit',
      `the expression has more than ${MAX_TOKENS} tokens (the limit is crossed here), so it selects nothing`,
      { ...at, end: Math.max(at.end, end) },
    );
    return null;
  }
  if (spanned.tokens.length === 0) return null;
  return new AnalysisInput({
    tokens: spanned.tokens,
    starts: spanned.starts,
    ends: spanned.ends,
    text,
    map,
    sourceEnd: end,
    cache: engineCache(prepared),
    handlers: handlerMap(options.handlers),
    builtinProtocols: options.builtinProtocols ?? true,
    now: options.now,
    report,
  });
}
