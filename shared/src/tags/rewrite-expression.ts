/**
 * The tag rewrite rule over the expression grammar: a tag is named in an expression only by a CLASS token
 * (`.tag`), so a rename replaces exactly the names of those tokens, found by the lexer with their places in
 * the text. Text that merely looks like a tag (inside a search key `/.nyc/`, a protocol argument
 * `:time:3d:-.x`, a refiner, a link id `nyc`) is never touched: it is not a CLASS token.
 */
import { tokenizeWithSpans } from '../expression/syntax/lexer.js';
import { TokenKind } from '../expression/syntax/token-kind.js';

/** Far more tokens than any expression is evaluated with: a rewrite must see every `.tag` of a long text. */
const REWRITE_MAX_TOKENS = 1_000_000;

/** The tags an expression names as `.tag`, in the order they first appear. */
export function tagsNamedIn(text: string): string[] {
  const { tokens } = tokenizeWithSpans(text, REWRITE_MAX_TOKENS);
  const seen = new Set<string>();
  for (const token of tokens) {
    if (token.kind === TokenKind.CLASS) seen.add(token.value);
  }
  return [...seen];
}

/**
 * `text` with every `.tag` whose name is in `from` renamed to `to`; everything else (spacing, operators,
 * other tokens, skipped characters) kept byte for byte. Returns `text` itself when it names none of them.
 */
export function renameTagInExpression(
  text: string,
  from: ReadonlySet<string>,
  to: string,
): string {
  const spans = tokenizeWithSpans(text, REWRITE_MAX_TOKENS);
  let out = '';
  let copied = 0;
  spans.tokens.forEach((token, index) => {
    if (token.kind !== TokenKind.CLASS || !from.has(token.value)) return;
    // The token's text is `.` then its name: keep the dot, replace the name.
    const nameStart = (spans.starts[index] ?? 0) + 1;
    out += text.slice(copied, nameStart) + to;
    copied = spans.ends[index] ?? nameStart;
  });
  return copied === 0 ? text : out + text.slice(copied);
}
