/**
 * The tokenizer (docs/expression-reference.md §2): one UTF-16 code unit at a time, skipping whitespace and
 * every character that starts no token.
 */
import { TokenKind } from './token-kind.js';
import type { Token } from './token-kind.js';
import { isWhitespace, isWordChar, wordEnd } from './whitespace.js';

/** Most tokens an expression may have after macro expansion (docs/expression-reference.md §1 step 4, §11). */
export const MAX_TOKENS = 1024;

/** Inline field letters after a search pattern's closing slash (docs/expression-reference.md §2.1). */
const FIELD_LETTERS = 'lutdka';

/**
 * Characters that end a protocol token when they follow one of its colons
 * (docs/expression-reference.md §2.2).
 */
const PROTOCOL_ENDERS = '+|,()*/';

const PUNCTUATION: Readonly<Record<string, Token>> = {
  '+': { kind: TokenKind.PLUS },
  '|': { kind: TokenKind.PIPE },
  '-': { kind: TokenKind.MINUS },
  ',': { kind: TokenKind.COMMA },
  '(': { kind: TokenKind.LPAREN },
  ')': { kind: TokenKind.RPAREN },
};

/** Where a token ends in the source, and the token (if one was produced). */
interface Scanned {
  readonly end: number;
  readonly token: Token | undefined;
}

/**
 * Splits `text` into tokens. Returns `null` as soon as there are more than `maxTokens` tokens (the whole
 * expression is then `∅`, never truncated).
 */
export function tokenize(
  text: string,
  maxTokens: number = MAX_TOKENS,
): Token[] | null {
  const tokens: Token[] = [];
  let pos = 0;
  while (pos < text.length) {
    const { end, token } = scanToken(text, pos);
    pos = end;
    if (token === undefined) continue;
    if (tokens.length >= maxTokens) return null;
    tokens.push(token);
  }
  return tokens;
}

/** Tokens with their places in the text, for analysis (the evaluator uses {@link tokenize}). */
export interface SpannedTokens {
  /** The tokens, exactly as {@link tokenize} returns them (at most `maxTokens`). */
  readonly tokens: Token[];
  /** Where each token starts in the text. */
  readonly starts: number[];
  /** Where each token ends (exclusive). */
  readonly ends: number[];
  /** Each piece of non-whitespace text that produced no token, as a `[start, end)` pair. */
  readonly skipped: [number, number][];
  /** Where the first token beyond `maxTokens` starts, when there is one (the expression is then `∅`). */
  readonly overflowAt: number | undefined;
}

/**
 * The same scan as {@link tokenize}, keeping each token's offsets and the runs of non-whitespace text that
 * yield no token (skipped characters, a bare `.` or `#`, `//`, `**`, `::`). Stops at the first token
 * beyond `maxTokens`.
 */
export function tokenizeWithSpans(
  text: string,
  maxTokens: number = MAX_TOKENS,
): SpannedTokens {
  const out: SpannedTokens = {
    tokens: [],
    starts: [],
    ends: [],
    skipped: [],
    overflowAt: undefined,
  };
  let pos = 0;
  while (pos < text.length) {
    const { end, token } = scanToken(text, pos);
    if (token !== undefined) {
      if (out.tokens.length >= maxTokens) return { ...out, overflowAt: pos };
      out.tokens.push(token);
      out.starts.push(pos);
      out.ends.push(end);
    } else if (!isWhitespace(text.charCodeAt(pos))) {
      out.skipped.push([pos, end]);
    }
    pos = end;
  }
  return out;
}

/** Reads the token (or skipped character) at `pos`. */
function scanToken(text: string, pos: number): Scanned {
  const code = text.charCodeAt(pos);
  const char = text.charAt(pos);
  if (isWhitespace(code)) return { end: pos + 1, token: undefined };
  const punctuation = Object.hasOwn(PUNCTUATION, char)
    ? PUNCTUATION[char]
    : undefined;
  if (punctuation !== undefined) return { end: pos + 1, token: punctuation };
  switch (char) {
    case '.':
      return scanName(text, pos, TokenKind.CLASS);
    case '#':
      return scanName(text, pos, TokenKind.DOM_REF);
    case '/':
      return scanRegex(text, pos);
    case ':':
      return scanProtocol(text, pos);
    case '*':
      return scanRefiner(text, pos);
    default:
      break;
  }
  if (isWordChar(code)) {
    const end = wordEnd(text, pos);
    return {
      end,
      token: { kind: TokenKind.ITEM_ID, value: text.slice(pos, end) },
    };
  }
  return { end: pos + 1, token: undefined };
}

/** `.name` or `#name`; the sigil alone yields nothing. */
function scanName(
  text: string,
  pos: number,
  kind: typeof TokenKind.CLASS | typeof TokenKind.DOM_REF,
): Scanned {
  const end = wordEnd(text, pos + 1);
  if (end === pos + 1) return { end, token: undefined };
  return { end, token: { kind, value: text.slice(pos + 1, end) } };
}

/** `/key/fields` (docs/expression-reference.md §2.1). */
function scanRegex(text: string, pos: number): Scanned {
  const close = text.indexOf('/', pos + 1);
  const keyEnd = close === -1 ? text.length : close;
  const rawKey = text.slice(pos + 1, keyEnd);
  let end = keyEnd;
  let letters = '';
  if (close !== -1) {
    end = close + 1;
    while (end < text.length && FIELD_LETTERS.includes(text.charAt(end))) {
      end++;
    }
    letters = text.slice(close + 1, end);
  }
  if (rawKey === '') return { end, token: undefined };
  const pieces = (letters === '' ? rawKey : `${rawKey}|${letters}`).split('|');
  return {
    end,
    token: {
      kind: TokenKind.REGEX,
      key: pieces[0] ?? '',
      fields: pieces[1] ?? '',
    },
  };
}

/** `:name:arg:…:` (docs/expression-reference.md §2.2). */
function scanProtocol(text: string, pos: number): Scanned {
  let end = text.indexOf(':', pos + 1);
  if (end === -1) end = text.length;
  const name = text.slice(pos + 1, end);
  const args: string[] = [];
  while (text.charAt(end) === ':') {
    end++;
    if (end >= text.length) break;
    const next = text.charCodeAt(end);
    if (isWhitespace(next) || PROTOCOL_ENDERS.includes(text.charAt(end))) {
      break;
    }
    let argEnd = text.indexOf(':', end);
    if (argEnd === -1) argEnd = text.length;
    args.push(text.slice(end, argEnd));
    end = argEnd;
  }
  if (name === '' && args.length === 0) return { end, token: undefined };
  const parts = [name, ...args].flatMap((part) => part.split('|'));
  return {
    end,
    token: {
      kind: TokenKind.PROTOCOL,
      name: parts[0] ?? '',
      args: parts.slice(1),
    },
  };
}

/** `*name:arg*` (docs/expression-reference.md §2.3). */
function scanRefiner(text: string, pos: number): Scanned {
  const close = text.indexOf('*', pos + 1);
  const contentEnd = close === -1 ? text.length : close;
  const content = text.slice(pos + 1, contentEnd);
  const end = close === -1 ? contentEnd : close + 1;
  if (content === '') return { end, token: undefined };
  const [name = '', ...args] = content.split(':');
  return { end, token: { kind: TokenKind.REFINER, name, args } };
}
