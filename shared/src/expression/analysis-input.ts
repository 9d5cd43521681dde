/**
 * What the analysis observers read besides the parse events: the tokens with their places in the expanded
 * text, the source map back to the original text, and the resolution options. Also how tokens are shown
 * in messages.
 */
import type { AnalysisReport } from './analysis-report.js';
import type { EngineCache } from './engine-cache.js';
import type { SourceMap, SourceSpan } from './macro-map.js';
import { TokenKind } from './token-kind.js';
import type { CallToken, Token } from './token-kind.js';
import type { FilterProtocolHandler } from './types.js';

/** Everything an analysis observer reads. */
export interface AnalysisInput {
  readonly tokens: readonly Token[];
  readonly starts: readonly number[];
  readonly ends: readonly number[];
  /** The expanded text the tokens were read from. */
  readonly text: string;
  readonly map: SourceMap;
  /** End of the expression in the original text (trailing whitespace excluded). */
  readonly sourceEnd: number;
  readonly cache: EngineCache;
  readonly handlers: ReadonlyMap<string, FilterProtocolHandler>;
  readonly builtinProtocols: boolean;
  readonly now: number;
  readonly report: AnalysisReport;
}

/** The original-text span of tokens `first` to `last`, inclusive. */
export function tokenSpan(
  input: AnalysisInput,
  first: number,
  last: number,
): SourceSpan {
  const { starts, ends, map } = input;
  return map.span(starts[first] ?? 0, ends[last] ?? 0);
}

/** From token `at` to the end of the expression. */
export function spanToEnd(input: AnalysisInput, at: number): SourceSpan {
  const span = tokenSpan(input, at, at);
  return { ...span, end: Math.max(span.end, input.sourceEnd) };
}

/** The expanded text of token `at`. */
export function tokenText(input: AnalysisInput, at: number): string {
  return input.text.slice(input.starts[at], input.ends[at]);
}

/** Reports `code` on the token at `at`. */
export function sayAt(
  input: AnalysisInput,
  code: Parameters<AnalysisReport['diagnostic']>[0],
  message: string,
  at: number,
): void {
  input.report.diagnostic(code, message, tokenSpan(input, at, at));
}

/** How an operator or punctuation token is written, in backticks. */
export function symbol(token: Token): string {
  switch (token.kind) {
    case TokenKind.PLUS:
      return '`+`';
    case TokenKind.PIPE:
      return '`|`';
    case TokenKind.MINUS:
      return '`-`';
    case TokenKind.COMMA:
      return '`,`';
    case TokenKind.LPAREN:
      return '`(`';
    case TokenKind.RPAREN:
      return '`)`';
    case TokenKind.ITEM_ID:
    case TokenKind.CLASS:
    case TokenKind.DOM_REF:
    case TokenKind.REGEX:
    case TokenKind.PROTOCOL:
    case TokenKind.REFINER:
      return 'a term';
  }
}

/** `*name:args*` as written (name and arguments rejoined). */
export function refinerText(token: CallToken): string {
  return `*${[token.name, ...token.args].join(':')}*`;
}

/** `:name:args:` as read (name and arguments rejoined). */
export function protocolText(token: CallToken): string {
  return `:${[token.name, ...token.args].join(':')}:`;
}
