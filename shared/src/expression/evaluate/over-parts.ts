/**
 * Resolving over the parts of a merge (docs/expression-reference.md §14) without building it, for the
 * expressions whose answer depends only on named links and tags: once its macros are expanded (with the
 * merge's macros), an expression without search-pattern and protocol atoms selects only links named by an
 * item id or carrying a tag it names, and operators, commas and refiners only reorder, combine and cut
 * those. So it gives the merge's answer over the small config of exactly those links, looked up in the
 * parts by the merge's rules (the last part that has an id decides its link, the first one its
 * position, integer-like ids first) and kept in the merge's catalog order. A property test checks the
 * answer against the merge's. Everything else (search patterns and protocols scan the whole catalog, a
 * part whose preparation dropped a link) needs the merge: `undefined`.
 */
import { expandMacros } from '../macros/macros.js';
import { isIndexKey, mergeMacros } from '../prepare/merge-prepared.js';
import { MAX_TOKENS, tokenize } from '../syntax/lexer.js';
import { TokenKind } from '../syntax/token-kind.js';
import { trimWhitespace } from '../syntax/whitespace.js';
import type { PreparedConfig, PreparedLink } from '../types.js';

/** Where an id stands in the merge's catalog: owner decides the link, first the position. */
interface Placed {
  readonly id: string;
  /** The id as an integer-like key (§7), or -1. */
  readonly index: number;
  readonly link: PreparedLink;
  /** Index of the last part that has the id: it decides the link. */
  readonly owner: number;
  /** Index of the first part that has the id. */
  readonly first: number;
  /** The id's catalog position in that part. */
  readonly at: number;
}

/**
 * Whether a part's links are exactly its stored link keys: then "the part has the id" (what the merge
 * asks) is `links.has(id)`. A part without its stored keys, or one whose preparation dropped a link (a
 * later invalid link hides an earlier valid one), is left to the merge.
 */
const keepsEveryLink = (part: PreparedConfig): boolean =>
  part.source !== undefined && part.links.size === part.source.linkKeys.length;

/** The merge's catalog order (§7, §14): integer-like ids first ascending, then by first appearance. */
function compareCatalog(a: Placed, b: Placed): number {
  if (a.index >= 0 || b.index >= 0) {
    return a.index >= 0 && b.index >= 0 ? a.index - b.index : b.index - a.index;
  }
  return a.first - b.first || a.at - b.at;
}

/**
 * A prepared config that resolves `expression` as the merge of `parts` would, holding only the links
 * the expression can select; `undefined` when only the merge can answer it (see the module note).
 */
export function overParts(
  parts: readonly PreparedConfig[],
  expression: string,
): PreparedConfig | undefined {
  if (!parts.every(keepsEveryLink)) return undefined;
  const macros = mergeMacros(parts);
  const expanded = expandMacros(trimWhitespace(expression), macros);
  const tokens = expanded === null ? null : tokenize(expanded, MAX_TOKENS);
  const names = new Set<string>();
  const tags = new Set<string>();
  for (const token of tokens ?? []) {
    if (token.kind === TokenKind.REGEX || token.kind === TokenKind.PROTOCOL)
      return undefined;
    if (token.kind === TokenKind.ITEM_ID) names.add(token.value);
    else if (token.kind === TokenKind.CLASS) tags.add(token.value);
  }

  const placed = new Map<string, Placed>();
  /** The id's place, when `owner` is the last part that has it (else another part decides it). */
  const place = (id: string, owner: number): Placed | undefined => {
    const known = placed.get(id);
    if (known !== undefined) return known.owner === owner ? known : undefined;
    for (let later = owner + 1; later < parts.length; later++) {
      if (parts[later]?.links.has(id)) return undefined;
    }
    const link = parts[owner]?.links.get(id);
    if (link === undefined) return undefined;
    for (const [first, part] of parts.entries()) {
      const at = part.position.get(id);
      if (at === undefined) continue;
      const index = isIndexKey(id) ? Number(id) : -1;
      const entry = { id, index, link, owner, first, at };
      placed.set(id, entry);
      return entry;
    }
    return undefined;
  };
  for (const name of names) {
    for (let owner = parts.length - 1; owner >= 0; owner--) {
      if (parts[owner]?.links.has(name)) {
        place(name, owner);
        break;
      }
    }
  }
  // A tag's members in the merge: the ids its owner tags with it (the owner's link is the merge's).
  const tagIndex = new Map<string, string[]>();
  for (const tag of tags) {
    const members: Placed[] = [];
    for (const [owner, part] of parts.entries()) {
      for (const id of part.tagIndex.get(tag) ?? []) {
        const entry = place(id, owner);
        if (entry !== undefined) members.push(entry);
      }
    }
    if (members.length === 0) continue;
    tagIndex.set(
      tag,
      members.sort(compareCatalog).map((entry) => entry.id),
    );
  }

  const catalog = [...placed.values()].sort(compareCatalog);
  const ids = catalog.map((entry) => entry.id);
  const links = new Map(catalog.map((entry) => [entry.id, entry.link]));
  const position = new Map(ids.map((id, pos) => [id, pos]));
  return {
    ids,
    links,
    position,
    tagIndex,
    macros,
    // No search atom reaches it, and protocols and settings take no part in resolving these.
    searchPatterns: new Map(),
    protocolNames: new Set(),
    settings: undefined,
  };
}
