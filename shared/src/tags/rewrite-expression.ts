/**
 * The rename rule over the expression grammar, for tags and for link ids. A tag is named in an expression
 * only by a CLASS token (`.tag`), a link id only by an ITEM_ID token (`name`) that is not a macro reference
 * (`@name`: the lexer skips the `@`, so the name behind it reads as an ITEM_ID in unexpanded text). A
 * rename replaces exactly the names of those tokens, found by the lexer with their places in the text.
 * Text that merely looks like a name (inside a search key `/.nyc/`, a protocol argument `:time:3d:-.x`, a
 * refiner, a link id `nyc` for a tag rename, a tag `.nyc` for an id rename) is never touched.
 */
import { tokenizeWithSpans } from '../expression/syntax/lexer.js';
import { TokenKind } from '../expression/syntax/token-kind.js';

/** Far more tokens than any expression is evaluated with: a rewrite must see every name of a long text. */
const REWRITE_MAX_TOKENS = 1_000_000;

/** What a rename replaces: tags (`.tag`, the name after the dot) or link ids (`id`, the whole word). */
type NameKind = typeof TokenKind.CLASS | typeof TokenKind.ITEM_ID;

/** The names of `kind` an expression holds, in the order they first appear. */
function namesIn(text: string, kind: NameKind): string[] {
  const { tokens, starts } = tokenizeWithSpans(text, REWRITE_MAX_TOKENS);
  const seen = new Set<string>();
  tokens.forEach((token, index) => {
    if (token.kind !== kind) return;
    if (kind === TokenKind.ITEM_ID && isMacroReference(text, starts[index]))
      return;
    seen.add(token.value);
  });
  return [...seen];
}

/** Whether the word starting at `start` is a macro reference (`@name`), not a link id. */
function isMacroReference(text: string, start: number | undefined): boolean {
  return start !== undefined && start > 0 && text[start - 1] === '@';
}

/** `text` with every name of `kind` in `from` renamed to `to`; everything else kept byte for byte. */
function renameIn(
  text: string,
  kind: NameKind,
  { from, to }: { readonly from: ReadonlySet<string>; readonly to: string },
): string {
  const spans = tokenizeWithSpans(text, REWRITE_MAX_TOKENS);
  let out = '';
  let copied = 0;
  spans.tokens.forEach((token, index) => {
    if (token.kind !== kind || !from.has(token.value)) return;
    const start = spans.starts[index] ?? 0;
    if (kind === TokenKind.ITEM_ID && isMacroReference(text, start)) return;
    // A tag's token is `.` then its name: keep the dot. An id's token is the name itself.
    const nameStart = kind === TokenKind.CLASS ? start + 1 : start;
    out += text.slice(copied, nameStart) + to;
    copied = spans.ends[index] ?? nameStart;
  });
  return copied === 0 ? text : out + text.slice(copied);
}

/** The tags an expression names as `.tag`, in the order they first appear. */
export function tagsNamedIn(text: string): string[] {
  return namesIn(text, TokenKind.CLASS);
}

/** The link ids an expression names (never a macro reference `@name`), in the order they first appear. */
export function idsNamedIn(text: string): string[] {
  return namesIn(text, TokenKind.ITEM_ID);
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
  return renameIn(text, TokenKind.CLASS, { from, to });
}

/**
 * `text` with every link id in `from` renamed to `to` (a merge of links: the removed id's references go to
 * the kept one); macro references, tags and everything else kept byte for byte. Returns `text` itself when
 * it names none of them.
 */
export function renameIdInExpression(
  text: string,
  from: ReadonlySet<string>,
  to: string,
): string {
  return renameIn(text, TokenKind.ITEM_ID, { from, to });
}
