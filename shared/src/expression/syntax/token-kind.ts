/**
 * The kinds of token the lexer produces (docs/expression-reference.md §2), as an `as const` object plus its
 * union type, and the token shapes.
 */
export const TokenKind = {
  PLUS: 'PLUS',
  PIPE: 'PIPE',
  MINUS: 'MINUS',
  COMMA: 'COMMA',
  LPAREN: 'LPAREN',
  RPAREN: 'RPAREN',
  ITEM_ID: 'ITEM_ID',
  CLASS: 'CLASS',
  DOM_REF: 'DOM_REF',
  REGEX: 'REGEX',
  PROTOCOL: 'PROTOCOL',
  REFINER: 'REFINER',
} as const;

/** One of the token kinds. */
export type TokenKind = (typeof TokenKind)[keyof typeof TokenKind];

/** A one-character punctuation token. */
export interface PunctuationToken {
  readonly kind:
    | typeof TokenKind.PLUS
    | typeof TokenKind.PIPE
    | typeof TokenKind.MINUS
    | typeof TokenKind.COMMA
    | typeof TokenKind.LPAREN
    | typeof TokenKind.RPAREN;
}

/** `name`, `.tag` or `#ref`: `value` is the run of word characters. */
export interface NameToken {
  readonly kind:
    | typeof TokenKind.ITEM_ID
    | typeof TokenKind.CLASS
    | typeof TokenKind.DOM_REF;
  readonly value: string;
}

/** `/key/fields` (docs/expression-reference.md §2.1), after the `|` split. */
export interface RegexToken {
  readonly kind: typeof TokenKind.REGEX;
  readonly key: string;
  /** The inline field string (may be empty). */
  readonly fields: string;
}

/** `:name:args:` or `*name:args*` (docs/expression-reference.md §2.2, §2.3). */
export interface CallToken {
  readonly kind: typeof TokenKind.PROTOCOL | typeof TokenKind.REFINER;
  readonly name: string;
  readonly args: readonly string[];
}

/** Any token. */
export type Token = PunctuationToken | NameToken | RegexToken | CallToken;

/** The set operators (docs/expression-reference.md §4). */
export type OperatorKind =
  typeof TokenKind.PLUS | typeof TokenKind.PIPE | typeof TokenKind.MINUS;

/** Whether a token is one of the set operators. */
export function isOperator(
  token: Token | undefined,
): token is PunctuationToken & {
  readonly kind: OperatorKind;
} {
  return (
    token !== undefined &&
    (token.kind === TokenKind.PLUS ||
      token.kind === TokenKind.PIPE ||
      token.kind === TokenKind.MINUS)
  );
}
