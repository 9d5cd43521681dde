/**
 * What the analysis observers read besides the parse events: the tokens with their places in the expanded
 * text, the source map back to the original text, and the resolution options. Also how tokens are shown
 * in messages.
 */
import type { AnalysisReport } from './analysis-report.js';
import type { EngineCache } from '../engine-cache.js';
import { findHyphenRuns } from '../syntax/hyphen-runs.js';
import type { HyphenRuns } from '../syntax/hyphen-runs.js';
import type { SourceMap, SourceSpan } from '../macros/macro-map.js';
import { TokenKind } from '../syntax/token-kind.js';
import type { CallToken, Token } from '../syntax/token-kind.js';
import type { FilterProtocolHandler } from '../types.js';

/** The tokens and options one analysis reads. */
export interface AnalysisFields {
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

/** Everything an analysis observer reads, and where its tokens are in the original text. */
export class AnalysisInput implements AnalysisFields {
  readonly tokens: readonly Token[];
  readonly starts: readonly number[];
  readonly ends: readonly number[];
  readonly text: string;
  readonly map: SourceMap;
  readonly sourceEnd: number;
  readonly cache: EngineCache;
  readonly handlers: ReadonlyMap<string, FilterProtocolHandler>;
  readonly builtinProtocols: boolean;
  readonly now: number;
  readonly report: AnalysisReport;
  #hyphens: HyphenRuns | undefined;

  constructor(fields: AnalysisFields) {
    this.tokens = fields.tokens;
    this.starts = fields.starts;
    this.ends = fields.ends;
    this.text = fields.text;
    this.map = fields.map;
    this.sourceEnd = fields.sourceEnd;
    this.cache = fields.cache;
    this.handlers = fields.handlers;
    this.builtinProtocols = fields.builtinProtocols;
    this.now = fields.now;
    this.report = fields.report;
  }

  /** The hyphen runs of the tokens, found on first use (diagnostics only). */
  get hyphens(): HyphenRuns {
    this.#hyphens ??= findHyphenRuns(this);
    return this.#hyphens;
  }

  /** The original-text span of tokens `first` to `last`, inclusive. */
  span(first: number, last: number): SourceSpan {
    return this.map.span(this.starts[first] ?? 0, this.ends[last] ?? 0);
  }

  /** From token `at` to the end of the expression. */
  toEnd(at: number): SourceSpan {
    const span = this.span(at, at);
    return { ...span, end: Math.max(span.end, this.sourceEnd) };
  }

  /** The expanded text of token `at`. */
  textOf(at: number): string {
    return this.text.slice(this.starts[at], this.ends[at]);
  }

  /** Reports `code` on the token at `at`. */
  say(
    code: Parameters<AnalysisReport['diagnostic']>[0],
    message: string,
    at: number,
  ): void {
    this.report.diagnostic(code, message, this.span(at, at));
  }
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
