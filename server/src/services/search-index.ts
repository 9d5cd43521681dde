import type { SearchField } from '@linkconfig/shared';
import { isPlainObject } from '@linkconfig/shared';
import { foldCase } from './fold-case.js';

/** Separates fields in the haystack; `q` never contains it (such queries take the slow path). */
const FIELD_SEP = '\u0000';
/** Separates tags inside the tags field. */
const TAG_SEP = '\u0001';
/** Field order inside one link's stretch of the haystack. */
const FIELD_ORDER: readonly SearchField[] = [
  'id',
  'label',
  'url',
  'tags',
  'description',
];
const FIELDS_PER_LINK = FIELD_ORDER.length;

/** One searchable link: its id, its (sanitized) link object and the texts of the five fields. */
export interface IndexedLink {
  readonly id: string;
  readonly link: Record<string, unknown>;
  readonly label: string | undefined;
  readonly url: string;
  readonly tags: readonly string[];
  readonly description: string | undefined;
}

/**
 * Per-config search structures, built once per stored version:
 * - the links in catalog order with their field texts;
 * - `tag → link positions` for exact tag lookups;
 * - one case-folded haystack (`foldCase`) of all field texts with field offsets, so a substring query is a few
 *   `indexOf` calls instead of a loop over links;
 * - a Bloom filter of the haystack's trigrams, so a query whose trigrams the config lacks skips it at once.
 */
export interface ConfigSearchIndex {
  readonly links: readonly IndexedLink[];
  readonly tags: ReadonlyMap<string, readonly number[]>;
  readonly haystack: string;
  /** `FIELDS_PER_LINK + 1` offsets per link: the start of each field, then the end of the link. */
  readonly offsets: Int32Array;
  readonly bloom: Uint32Array;
}

/** Builds the index of a (sanitized) `allLinks` object. Links without a string `url` are left out. */
export function buildSearchIndex(allLinks: unknown): ConfigSearchIndex {
  const links: IndexedLink[] = [];
  const tags = new Map<string, number[]>();
  if (isPlainObject(allLinks)) {
    for (const id of Object.keys(allLinks)) {
      const link = allLinks[id];
      if (!isPlainObject(link) || typeof link['url'] !== 'string') continue;
      const rawTags = link['tags'];
      const linkTags = Array.isArray(rawTags)
        ? rawTags.filter((t): t is string => typeof t === 'string')
        : [];
      const position = links.length;
      for (const tag of new Set(linkTags)) {
        const list = tags.get(tag);
        if (list === undefined) tags.set(tag, [position]);
        else list.push(position);
      }
      const label = link['label'];
      const description = link['description'];
      links.push({
        id,
        link,
        label: typeof label === 'string' ? label : undefined,
        url: link['url'],
        tags: linkTags,
        description: typeof description === 'string' ? description : undefined,
      });
    }
  }
  const offsets = new Int32Array(links.length * (FIELDS_PER_LINK + 1) + 1);
  const parts: string[] = [];
  let at = 0;
  links.forEach((entry, i) => {
    const texts = [
      entry.id,
      entry.label ?? '',
      entry.url,
      entry.tags.join(TAG_SEP),
      entry.description ?? '',
    ];
    texts.forEach((text, f) => {
      const lower = foldCase(text);
      offsets[i * (FIELDS_PER_LINK + 1) + f] = at;
      parts.push(lower, FIELD_SEP);
      at += lower.length + 1;
    });
    offsets[i * (FIELDS_PER_LINK + 1) + FIELDS_PER_LINK] = at;
  });
  const haystack = parts.join('');
  return { links, tags, haystack, offsets, bloom: buildBloom(haystack) };
}

/** Which field of which link a haystack position falls in. */
export function locate(
  index: ConfigSearchIndex,
  position: number,
): { link: number; field: SearchField } {
  const stride = FIELDS_PER_LINK + 1;
  let lo = 0;
  let hi = index.links.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if ((index.offsets[mid * stride] ?? 0) <= position) lo = mid;
    else hi = mid - 1;
  }
  let field = 0;
  while (
    field < FIELDS_PER_LINK - 1 &&
    (index.offsets[lo * stride + field + 1] ?? 0) <= position
  ) {
    field++;
  }
  return { link: lo, field: FIELD_ORDER[field] ?? 'id' };
}

/** Where link `i`'s stretch of the haystack ends. */
export function linkEnd(index: ConfigSearchIndex, link: number): number {
  return index.offsets[link * (FIELDS_PER_LINK + 1) + FIELDS_PER_LINK] ?? 0;
}

/** `true` when `text` (lower-cased, free of separators) can be in the haystack per its Bloom filter. */
export function mayContain(index: ConfigSearchIndex, text: string): boolean {
  const mask = index.bloom.length * 32 - 1;
  for (let i = 0; i + 3 <= text.length; i++) {
    const h = trigramHash(text, i);
    if (!testBit(index.bloom, h & mask)) return false;
    if (!testBit(index.bloom, (h >>> 13) & mask)) return false;
  }
  return true;
}

/** `true` when `q` can be searched through the haystack (it holds no separator). */
export function haystackSafe(q: string): boolean {
  return !q.includes(FIELD_SEP) && !q.includes(TAG_SEP);
}

function buildBloom(haystack: string): Uint32Array {
  let bits = 1024;
  while (bits < haystack.length * 4) bits *= 2;
  const bloom = new Uint32Array(bits / 32);
  const mask = bits - 1;
  for (let i = 0; i + 3 <= haystack.length; i++) {
    const h = trigramHash(haystack, i);
    setBit(bloom, h & mask);
    setBit(bloom, (h >>> 13) & mask);
  }
  return bloom;
}

function trigramHash(text: string, i: number): number {
  let h = Math.imul(text.charCodeAt(i), 0x9e3779b1);
  h = Math.imul(h ^ text.charCodeAt(i + 1), 0x85ebca6b);
  h = Math.imul(h ^ text.charCodeAt(i + 2), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

function setBit(bits: Uint32Array, n: number): void {
  bits[n >>> 5] = (bits[n >>> 5] ?? 0) | (1 << (n & 31));
}

function testBit(bits: Uint32Array, n: number): boolean {
  return ((bits[n >>> 5] ?? 0) & (1 << (n & 31))) !== 0;
}
