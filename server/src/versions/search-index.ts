import type { SearchField, Sliced } from '@linkconfig/shared';
import { isPlainObject, runAtOnce } from '@linkconfig/shared';
import { foldCase } from './fold-case.js';

/** Separates fields in the haystack; `q` never contains it (such queries take the slow path). */
const FIELD_SEP = '\u0000';
/** Separates tags inside the tags field. */
const TAG_SEP = '\u0001';
/** Field order inside one link's stretch of the haystack. */
export const FIELD_ORDER: readonly SearchField[] = [
  'id',
  'label',
  'url',
  'tags',
  'description',
];
const FIELDS_PER_LINK = FIELD_ORDER.length;
const STRIDE = FIELDS_PER_LINK + 1;

/**
 * One searchable link: its id, its (sanitized) link object, the link's JSON text (what `JSON.stringify`
 * gives: search answers repeat the same links in many answers, so each is written once per version) and
 * the texts of the five fields.
 */
export interface IndexedLink {
  readonly id: string;
  readonly link: Record<string, unknown>;
  /** `JSON.stringify(link)`; empty in a link read for one test only (`indexedLink(…, false)`). */
  readonly json: string;
  readonly label: string | undefined;
  readonly url: string;
  readonly tags: readonly string[];
  readonly description: string | undefined;
}

/**
 * The link `link` (sanitized) of id `id` as searches read it, or `undefined` when they leave it out (not
 * an object, or no string `url`): the string tags, the label and description when they are strings; its
 * JSON text unless `withJson` is false.
 */
export function indexedLink(
  id: string,
  link: unknown,
  withJson = true,
): IndexedLink | undefined {
  if (!isPlainObject(link) || typeof link['url'] !== 'string') return undefined;
  const rawTags = link['tags'];
  const label = link['label'];
  const description = link['description'];
  return {
    id,
    link,
    json: withJson ? JSON.stringify(link) : '',
    label: typeof label === 'string' ? label : undefined,
    url: link['url'],
    tags: Array.isArray(rawTags)
      ? rawTags.filter((t): t is string => typeof t === 'string')
      : [],
    description: typeof description === 'string' ? description : undefined,
  };
}

/**
 * The text of field number `field` (of {@link FIELD_ORDER}) of a link, before folding: the tags joined
 * by a separator no query holds, a missing label or description empty.
 */
export function fieldText(entry: IndexedLink, field: number): string {
  switch (field) {
    case 0:
      return entry.id;
    case 1:
      return entry.label ?? '';
    case 2:
      return entry.url;
    case 3:
      return entry.tags.join(TAG_SEP);
    default:
      return entry.description ?? '';
  }
}

/**
 * Per-config search structures, built once per stored version:
 * - the links in catalog order with their field texts;
 * - `tag → link positions` for exact tag lookups;
 * - one case-folded haystack (`foldCase`) of all field texts with field offsets, so whether a link holds a
 *   text in a field is one bounded `indexOf`;
 * - bit-sliced trigram signatures: for each of `slices` hash buckets, a bitset over the links whose folded
 *   text has a trigram in that bucket. The links that can contain a text are the AND of its trigrams'
 *   bitsets: a handful of word operations per config instead of a scan of its haystack.
 */
export interface ConfigSearchIndex {
  readonly links: readonly IndexedLink[];
  readonly tags: ReadonlyMap<string, readonly number[]>;
  readonly haystack: string;
  /** `FIELDS_PER_LINK + 1` offsets per link: the start of each field, then the end of the link. */
  readonly offsets: Int32Array;
  /** Number of signature buckets (a power of two). */
  readonly slices: number;
  /** 32-bit words per bitset (one bit per link). */
  readonly words: number;
  /** `slices` bitsets of `words` words each. */
  readonly signatures: Uint32Array;
}

/** Links indexed between two points where building an index may pause (`util/slices.ts`). */
const LINKS_PER_STEP = 256;

/** Whether the link at `index` is a point where building may pause. */
const pausesAt = (index: number): boolean =>
  index % LINKS_PER_STEP === LINKS_PER_STEP - 1;

/** Builds the index of a (sanitized) `allLinks` object. Links without a string `url` are left out. */
export function buildSearchIndex(allLinks: unknown): ConfigSearchIndex {
  return runAtOnce(searchIndexSteps(allLinks));
}

/** {@link buildSearchIndex} as steps that may pause between links (`ConfigVersion.searchIndexInSlices`). */
export function* searchIndexSteps(
  allLinks: unknown,
): Sliced<ConfigSearchIndex> {
  const links: IndexedLink[] = [];
  const tags = new Map<string, number[]>();
  if (isPlainObject(allLinks)) {
    let step = 0;
    for (const id of Object.keys(allLinks)) {
      if (pausesAt(step++)) yield;
      const entry = indexedLink(id, allLinks[id]);
      if (entry === undefined) continue;
      const position = links.length;
      for (const tag of new Set(entry.tags)) {
        const list = tags.get(tag);
        if (list === undefined) tags.set(tag, [position]);
        else list.push(position);
      }
      links.push(entry);
    }
  }
  const offsets = new Int32Array(links.length * STRIDE + 1);
  const parts: string[] = [];
  let at = 0;
  for (const [i, entry] of links.entries()) {
    if (pausesAt(i)) yield;
    for (let f = 0; f < FIELDS_PER_LINK; f++) {
      const folded = foldCase(fieldText(entry, f));
      offsets[i * STRIDE + f] = at;
      parts.push(folded, FIELD_SEP);
      at += folded.length + 1;
    }
    offsets[i * STRIDE + FIELDS_PER_LINK] = at;
  }
  const haystack = parts.join('');
  return {
    links,
    tags,
    haystack,
    offsets,
    ...(yield* buildSignatures(haystack, offsets, links.length)),
  };
}

/** Signature buckets: about 6 per character of a link, so a bucket is set for ~1 link in 10. */
function sliceCount(haystackLength: number, links: number): number {
  const perLink = haystackLength / Math.max(1, links);
  let slices = 256;
  while (slices < perLink * 6 && slices < 8192) slices *= 2;
  return slices;
}

function* buildSignatures(
  haystack: string,
  offsets: Int32Array,
  count: number,
): Sliced<Pick<ConfigSearchIndex, 'slices' | 'words' | 'signatures'>> {
  const words = Math.max(1, Math.ceil(count / 32));
  const slices = sliceCount(haystack.length, count);
  const signatures = new Uint32Array(slices * words);
  const mask = slices - 1;
  for (let link = 0; link < count; link++) {
    if (pausesAt(link)) yield;
    const word = link >>> 5;
    const bit = 1 << (link & 31);
    const end = offsets[link * STRIDE + FIELDS_PER_LINK] ?? 0;
    for (let p = offsets[link * STRIDE] ?? 0; p + 3 <= end; p++) {
      if (!plain(haystack, p)) continue;
      const slot = (trigramHash(haystack, p) & mask) * words + word;
      signatures[slot] = (signatures[slot] ?? 0) | bit;
    }
  }
  return { slices, words, signatures };
}

/** Whether the trigram at `p` holds no separator (no query text can contain one). */
export function plain(text: string, p: number): boolean {
  for (let i = p; i < p + 3; i++) {
    const c = text.charCodeAt(i);
    if (c === 0 || c === 1) return false;
  }
  return true;
}

/**
 * The positions (in catalog order) of the links that may contain every one of `texts` (folded): the AND
 * of all their trigrams' bitsets. `null` when no text has three characters or more (trigrams cannot
 * narrow anything then).
 */
export function candidateLinks(
  index: ConfigSearchIndex,
  texts: readonly string[],
): number[] | null {
  const { words, signatures } = index;
  const mask = index.slices - 1;
  let acc: Uint32Array | null = null;
  for (const text of texts) {
    for (let i = 0; i + 3 <= text.length; i++) {
      acc ??= new Uint32Array(words).fill(0xffffffff);
      const base = (trigramHash(text, i) & mask) * words;
      let any = 0;
      for (let w = 0; w < words; w++) {
        const v = (acc[w] ?? 0) & (signatures[base + w] ?? 0);
        acc[w] = v;
        any |= v;
      }
      if (any === 0) return [];
    }
  }
  if (acc === null) return null;
  const out: number[] = [];
  for (let w = 0; w < words; w++) {
    let v = acc[w] ?? 0;
    while (v !== 0) {
      const low = v & -v;
      const link = w * 32 + 31 - Math.clz32(low);
      if (link < index.links.length) out.push(link);
      v ^= low;
    }
  }
  return out;
}

/** A folded text, and the fields to look for it in. */
export interface TextQuery {
  readonly text: string;
  readonly fields: ReadonlySet<SearchField>;
}

/**
 * Whether link `link` holds the text (folded) in one of the fields: bounded searches in the haystack, one
 * per run of adjacent selected fields (the separator between two fields is in no text, so a match
 * never spans two of them: all five fields are one search).
 */
export function linkContains(
  index: ConfigSearchIndex,
  link: number,
  { text, fields }: TextQuery,
): boolean {
  const { haystack, offsets } = index;
  const base = link * STRIDE;
  let from = -1;
  for (let f = 0; f <= FIELDS_PER_LINK; f++) {
    const field = FIELD_ORDER[f];
    if (field !== undefined && fields.has(field)) {
      if (from < 0) from = offsets[base + f] ?? 0;
      continue;
    }
    if (from < 0) continue;
    // The run ends before this field's start (the link's end after the last), less the separator.
    const to = (offsets[base + f] ?? 0) - 1;
    if (to - from >= text.length && haystack.slice(from, to).includes(text))
      return true;
    from = -1;
  }
  return false;
}

/**
 * The folded text of field number `field` (of {@link FIELD_ORDER}) of link `link`: a slice of the
 * haystack (a view in V8), so a search in it stays within the field.
 */
export function foldedField(
  index: ConfigSearchIndex,
  link: number,
  field: number,
): string {
  return index.haystack.slice(
    fieldStart(index, link, field),
    fieldEnd(index, link, field),
  );
}

const fieldStart = (index: ConfigSearchIndex, link: number, field: number) =>
  index.offsets[link * STRIDE + field] ?? 0;

/** The field's text ends one character before the next field starts (the separator). */
const fieldEnd = (index: ConfigSearchIndex, link: number, field: number) =>
  (index.offsets[link * STRIDE + field + 1] ?? 0) - 1;

/** `true` when `q` can be searched through the haystack (it holds no separator). */
export function haystackSafe(q: string): boolean {
  return !q.includes(FIELD_SEP) && !q.includes(TAG_SEP);
}

/** The hash of the trigram of `text` at `i` (the signatures' buckets are its low bits). */
export function trigramHash(text: string, i: number): number {
  let h = Math.imul(text.charCodeAt(i), 0x9e3779b1);
  h = Math.imul(h ^ text.charCodeAt(i + 1), 0x85ebca6b);
  h = Math.imul(h ^ text.charCodeAt(i + 2), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}
