/**
 * A merge patch of some links of a config applied to the config's JSON text instead of its parsed value:
 * the edit users make most (one link of a large config) costs the size of the links it changes, not the
 * config's. The text must be what `JSON.stringify` writes for its own value (a canonical text, as every
 * patched version is), so the answer is exactly `JSON.stringify(applyMergePatch(JSON.parse(text), patch))`;
 * a patch of another shape, or a result the config check would refuse, is left to that full computation.
 */
import type { ChangeSummary } from '../schemas/history.js';
import { stringEnd } from '../schemas/json-fidelity.js';
import { isStoredLinkEntry } from '../schemas/validate-config.js';
import { applyMergePatch } from './merge-patch.js';
import { isPlainObject } from './own-keys.js';

/** Where the members of a config's `allLinks` sit in its JSON text. */
export interface LinkSpans {
  /**
   * Each member's key and its place in text order. Versions patched by {@link patchLinksText} share it
   * (their keys and order do not change).
   */
  readonly order: ReadonlyMap<string, number>;
  /** Per member (in text order), where its value starts in the text. */
  readonly starts: Int32Array;
  /** Per member, where its value ends (exclusive). */
  readonly ends: Int32Array;
}

const QUOTE = 0x22;
const COLON = 0x3a;
const COMMA = 0x2c;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;

const isSpace = (c: number): boolean =>
  c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;

function skipSpace(text: string, at: number): number {
  let i = at;
  while (i < text.length && isSpace(text.charCodeAt(i))) i++;
  return i;
}

/** The end (exclusive) of the JSON value that starts at `at` (valid JSON, no space before it). */
function valueEnd(text: string, at: number): number {
  const c = text.charCodeAt(at);
  if (c === QUOTE) return stringEnd(text, at) + 1;
  if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
    let depth = 0;
    for (let i = at; i < text.length; i++) {
      const d = text.charCodeAt(i);
      if (d === QUOTE) i = stringEnd(text, i);
      else if (d === OPEN_OBJECT || d === OPEN_ARRAY) depth++;
      else if (d === CLOSE_OBJECT || d === CLOSE_ARRAY) {
        if (--depth === 0) return i + 1;
      }
    }
    return text.length;
  }
  let i = at + 1;
  while (i < text.length) {
    const d = text.charCodeAt(i);
    if (d === COMMA || d === CLOSE_OBJECT || d === CLOSE_ARRAY || isSpace(d))
      break;
    i++;
  }
  return i;
}

/**
 * Reads the members of the object that opens at `at` (valid JSON), calling `member` with each key and its
 * value's span; answers where the object ends, or -1 when `at` is not an object.
 */
export function readMembers(
  text: string,
  at: number,
  member: (key: string, start: number, end: number) => void,
): number {
  if (text.charCodeAt(at) !== OPEN_OBJECT) return -1;
  let i = skipSpace(text, at + 1);
  if (text.charCodeAt(i) === CLOSE_OBJECT) return i + 1;
  for (;;) {
    const close = stringEnd(text, i);
    const raw = text.slice(i + 1, close);
    const key = raw.includes('\\')
      ? (JSON.parse(text.slice(i, close + 1)) as string)
      : raw;
    i = skipSpace(text, close + 1);
    if (text.charCodeAt(i) !== COLON) return -1;
    const start = skipSpace(text, i + 1);
    const end = valueEnd(text, start);
    member(key, start, end);
    i = skipSpace(text, end);
    if (text.charCodeAt(i) !== COMMA) return i + 1;
    i = skipSpace(text, i + 1);
  }
}

/**
 * Where each member of the top-level `allLinks` object of `text` (valid JSON without repeated keys, as
 * every stored config is) sits; `undefined` when the text has no such object.
 */
export function findLinkSpans(text: string): LinkSpans | undefined {
  let links: { start: number; end: number } | undefined;
  const top = readMembers(text, skipSpace(text, 0), (key, start, end) => {
    if (key === 'allLinks') links = { start, end };
  });
  if (top < 0 || links === undefined) return undefined;
  const order = new Map<string, number>();
  const starts: number[] = [];
  const ends: number[] = [];
  const read = readMembers(text, links.start, (key, start, end) => {
    order.set(key, starts.length);
    starts.push(start);
    ends.push(end);
  });
  if (read < 0) return undefined;
  return {
    order,
    starts: Int32Array.from(starts),
    ends: Int32Array.from(ends),
  };
}

/** One link's new text, at its place in text order. */
interface Edit {
  readonly at: number;
  readonly text: string;
}

/** A key JavaScript orders before the others (an array index): a new one would not come last. */
const INDEX_KEY = /^(?:0|[1-9]\d*)$/;

/** What a patch does to the links: changed ones in place, removed ones, added ones (in patch order). */
interface LinkEdits {
  readonly changed: Edit[];
  readonly removed: number[];
  readonly added: string[];
  /** Changed links whose value stays what it was (the patch set what they held). */
  same: number;
}

/** What a patch on the text did: the links' counts as the one diff counts them, and links held after. */
export type TextPatchCounts = ChangeSummary & { readonly links: number };

/**
 * `patch` applied to the canonical config `text` whose links sit at `spans`, when the patch only
 * changes, adds or removes links (not the first one), each changed or added link passing the config
 * check (`isStoredLinkEntry`, nesting within `maxDepth`): the new text, exactly as the full computation
 * writes it, and where its links now sit. `undefined` otherwise (then apply the patch to the parsed
 * config).
 */
export function patchLinksText(
  { text, spans }: { readonly text: string; readonly spans: LinkSpans },
  patch: unknown,
  maxDepth: number,
): { json: string; spans: LinkSpans; counts: TextPatchCounts } | undefined {
  if (!isPlainObject(patch)) return undefined;
  const sections = Object.keys(patch);
  if (sections.length !== 1 || sections[0] !== 'allLinks') return undefined;
  const links = patch['allLinks'];
  if (!isPlainObject(links)) return undefined;
  const edits = linkEdits({ text, spans }, links, maxDepth);
  if (edits === undefined) return undefined;
  const { changed, removed, added } = edits;
  const counts = {
    added: added.length,
    removed: removed.length,
    changed: changed.length - edits.same,
    links: spans.starts.length - removed.length + added.length,
  };
  if (removed.length === 0 && added.length === 0) {
    if (changed.length === 0) return undefined;
    return { ...spliced(text, spans, changed), counts };
  }
  // Links removed or added: the text spliced, the places found again by a scan of it.
  const cuts: { from: number; to: number; text: string }[] = changed.map(
    (edit) => ({
      from: spans.starts[edit.at] ?? 0,
      to: spans.ends[edit.at] ?? 0,
      text: edit.text,
    }),
  );
  for (const at of removed)
    cuts.push({
      from: spans.ends[at - 1] ?? 0,
      to: spans.ends[at] ?? 0,
      text: '',
    });
  const last = spans.ends[spans.ends.length - 1];
  if (added.length > 0) {
    if (last === undefined) return undefined;
    cuts.push({ from: last, to: last, text: added.join('') });
  }
  cuts.sort((a, b) => a.from - b.from || a.to - b.to);
  const parts: string[] = [];
  let from = 0;
  for (const cut of cuts) {
    parts.push(text.slice(from, cut.from), cut.text);
    from = cut.to;
  }
  parts.push(text.slice(from));
  const json = parts.join('');
  const found = findLinkSpans(json);
  return found === undefined ? undefined : { json, spans: found, counts };
}

/** What `links` (a patch's `allLinks`) does to the stored links, or `undefined` when not on the text. */
function linkEdits(
  { text, spans }: { readonly text: string; readonly spans: LinkSpans },
  links: Record<string, unknown>,
  maxDepth: number,
): LinkEdits | undefined {
  const edits: LinkEdits = { changed: [], removed: [], added: [], same: 0 };
  for (const id of Object.keys(links)) {
    const change = links[id];
    const at = spans.order.get(id);
    if (at === undefined) {
      if (change === null) continue;
      if (INDEX_KEY.test(id)) return undefined;
      const added = applyMergePatch(undefined, change);
      if (!isStoredLinkEntry(added, maxDepth)) return undefined;
      edits.added.push(`,${JSON.stringify(id)}:${JSON.stringify(added)}`);
    } else if (change === null) {
      if (at === 0) return undefined;
      edits.removed.push(at);
    } else {
      if (!isPlainObject(change)) return undefined;
      const before = text.slice(spans.starts[at], spans.ends[at]);
      const next = applyMergePatch(JSON.parse(before), change);
      if (!isStoredLinkEntry(next, maxDepth)) return undefined;
      const after = JSON.stringify(next);
      // Both canonical: the same text is the same value.
      if (after === before) edits.same++;
      edits.changed.push({ at, text: after });
    }
  }
  edits.changed.sort((a, b) => a.at - b.at);
  return edits;
}

/** `text` with each edit's link text in place of the stored one, and the moved spans. */
function spliced(
  text: string,
  spans: LinkSpans,
  edits: readonly Edit[],
): { json: string; spans: LinkSpans } {
  const parts: string[] = [];
  let from = 0;
  for (const edit of edits) {
    parts.push(text.slice(from, spans.starts[edit.at]), edit.text);
    from = spans.ends[edit.at] ?? from;
  }
  parts.push(text.slice(from));
  const count = spans.starts.length;
  const starts = new Int32Array(count);
  const ends = new Int32Array(count);
  let shift = 0;
  let next = 0;
  for (let i = 0; i < count; i++) {
    const start = (spans.starts[i] ?? 0) + shift;
    const end = spans.ends[i] ?? 0;
    starts[i] = start;
    const edit = edits[next];
    if (edit !== undefined && edit.at === i) {
      const editEnd = start + edit.text.length;
      ends[i] = editEnd;
      shift += editEnd - (end + shift);
      next++;
    } else {
      ends[i] = end + shift;
    }
  }
  return { json: parts.join(''), spans: { order: spans.order, starts, ends } };
}
