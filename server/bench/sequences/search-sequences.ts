/**
 * The search scenarios' distinct requests (see request-sequences.ts): words in several spellings and
 * field orders, words that match nothing, tags with several limits, and regexes.
 */
import { mulberry32, randomInt } from '../prng.js';
import type { Random } from '../prng.js';
import { get, interleave, listSequence } from './request-sequences.js';
import type { BenchRequest, RequestSequence } from './request-sequences.js';
import { TAGS, WORDS } from '../vocabulary.js';

/** The search fields, in the order the contract lists them. */
const FIELDS = ['label', 'url', 'tags', 'description', 'id'] as const;

/**
 * `fields` values that all mean "every field": absent, and several orders of the five names. A client
 * may list them in any order; the answer is the same, the request text is not.
 */
export const ALL_FIELD_ORDERS: readonly (string | undefined)[] = [
  undefined,
  FIELDS.join(','),
  [...FIELDS].reverse().join(','),
  'description,label,url,id,tags',
  'id,label,description,tags,url',
  'tags,url,id,description,label',
  'url,description,tags,label,id',
  'label,id,tags,url,description',
];

/**
 * `count` distinct spellings of `word` in mixed case (fewer for a short word that has fewer): lower case,
 * capitalized, upper case, then seeded random mixtures.
 */
export function caseVariants(
  word: string,
  count: number,
  rnd: Random,
): string[] {
  const out = new Set<string>([
    word.toLowerCase(),
    word.charAt(0).toUpperCase() + word.slice(1).toLowerCase(),
    word.toUpperCase(),
  ]);
  const letters = word.replace(/[^a-z]/gi, '').length;
  const possible = 2 ** Math.min(letters, 30);
  for (
    let tries = 0;
    out.size < Math.min(count, possible) && tries < count * 20;
    tries++
  ) {
    let mixed = '';
    for (const ch of word)
      mixed += rnd() < 0.5 ? ch.toUpperCase() : ch.toLowerCase();
    out.add(mixed);
  }
  return [...out].slice(0, count);
}

/** `/search?…` with the parameters in the given order (empty values left out). */
export function searchPath(
  params: readonly (readonly [string, string | undefined])[],
): string {
  const search = new URLSearchParams();
  for (const [key, value] of params)
    if (value !== undefined) search.append(key, value);
  return `/search?${search.toString()}`;
}

/**
 * `/search?q=` for every word of the vocabulary, each in up to 6 case spellings × the 8 orders of
 * {@link ALL_FIELD_ORDERS}, half of them with `fields` before `q`.
 */
export function searchWordSequence(): RequestSequence {
  const rnd = mulberry32(101);
  const groups = WORDS.map((word) => {
    const spellings = caseVariants(word, 6, rnd);
    const out: BenchRequest[] = [];
    for (const [f, fields] of ALL_FIELD_ORDERS.entries()) {
      for (const [s, q] of spellings.entries()) {
        const params: [string, string | undefined][] = [
          ['q', q],
          ['fields', fields],
        ];
        if ((f + s) % 2 === 1) params.reverse();
        out.push(get(searchPath(params)));
      }
    }
    return out;
  });
  return limitPasses(listSequence(interleave(groups)));
}

/** Search `limit` values the contract allows (1–1000), those nearest the default (100) first. */
export const LIMITS_NEAR_DEFAULT: readonly number[] = Array.from(
  { length: 1000 },
  (_, i) => i + 1,
).sort((a, b) => Math.abs(a - 100) - Math.abs(b - 100) || a - b);

/**
 * `base` (searches without `limit`), then `base` again with `limit=100`, again with the next limit of
 * {@link LIMITS_NEAR_DEFAULT} (99, 101, 98, …), and so on: a sequence whose requests never repeat in a
 * run (1,001 passes), while most answers stay those of the default limit.
 */
export function limitPasses(base: RequestSequence): RequestSequence {
  const passes = 1 + LIMITS_NEAR_DEFAULT.length;
  return {
    size: base.size * passes,
    at: (index) => {
      const i = index % (base.size * passes);
      const request = base.at(i % base.size);
      const pass = Math.floor(i / base.size);
      if (pass === 0) return request;
      const limit = LIMITS_NEAR_DEFAULT[pass - 1] ?? 100;
      return { ...request, path: `${request.path}&limit=${limit}` };
    },
  };
}

/** Letters of the no-match words: `q` followed by `z` occurs in no vocabulary word, tag or host. */
const RARE_LETTERS = 'zxjvkqwy';

/**
 * `count` distinct words that match nothing in the dataset: each starts with `qz` (a pair no word of the
 * vocabulary contains) and goes on with 3–5 seeded letters, in mixed case.
 */
export function noMatchWords(count: number): string[] {
  const rnd = mulberry32(202);
  // Keyed by the lower-case word: distinct words, not only distinct spellings.
  const out = new Map<string, string>();
  while (out.size < count) {
    let word = 'qz';
    const length = randomInt(rnd, 3, 5);
    for (let i = 0; i < length; i++) {
      word += RARE_LETTERS.charAt(Math.floor(rnd() * RARE_LETTERS.length));
    }
    const [spelling = word] = caseVariants(word, 4, rnd).slice(
      randomInt(rnd, 0, 3),
    );
    if (!out.has(word)) out.set(word, spelling);
  }
  return [...out.values()];
}

/** `/search?q=` with `count` distinct words that match nothing (every config is searched to the end). */
export function noMatchSequence(count = 3000): RequestSequence {
  return limitPasses(
    listSequence(
      noMatchWords(count).map((q, i) =>
        get(
          searchPath([
            ['q', q],
            ['fields', ALL_FIELD_ORDERS[i % ALL_FIELD_ORDERS.length]],
          ]),
        ),
      ),
    ),
  );
}

/** Result limits a tag search is asked with (`undefined`: the default, 100). */
const TAG_LIMITS = [undefined, 100, 50, 200, 25] as const;

/**
 * `/search?tag=` for every tag of the vocabulary, with several `limit`s, the parameters in both orders
 * (621 requests); then every tag in both orders with each other limit the contract allows, those nearest
 * the default first (138,069 in all, none repeated). Tags are matched exactly (case-sensitive), so they
 * are never re-spelled.
 */
export function tagSequence(): RequestSequence {
  const first = firstTagRequests();
  const others = LIMITS_NEAR_DEFAULT.filter(
    (l) => !(TAG_LIMITS as readonly (number | undefined)[]).includes(l),
  );
  const perPass = TAGS.length * 2;
  return {
    size: first.size + others.length * perPass,
    at: (index) => {
      const i = index % (first.size + others.length * perPass);
      if (i < first.size) return first.at(i);
      const j = i - first.size;
      const tag = TAGS[j % TAGS.length] ?? 'nyc';
      const limit = String(others[Math.floor(j / perPass)] ?? 100);
      const params: [string, string][] = [
        ['tag', tag],
        ['limit', limit],
      ];
      if (Math.floor(j / TAGS.length) % 2 === 1) params.reverse();
      return get(searchPath(params));
    },
  };
}

function firstTagRequests(): RequestSequence {
  const groups = TAGS.map((tag) => {
    const out: BenchRequest[] = [];
    for (const limit of TAG_LIMITS) {
      const params: [string, string | undefined][] = [
        ['tag', tag],
        ['limit', limit === undefined ? undefined : String(limit)],
      ];
      out.push(get(searchPath(params)));
      if (limit !== undefined) out.push(get(searchPath([...params].reverse())));
    }
    return out;
  });
  return listSequence(interleave(groups));
}

/** A vocabulary word drawn uniformly (rare words as often as common ones). */
const anyWord = (rnd: Random): string =>
  WORDS[Math.floor(rnd() * WORDS.length)] ?? 'guide';

/**
 * The regex shapes clients write: alternations, word boundaries, anchors, optional letters, groups and
 * classes. Every shape means the same in RE2 and in JavaScript's RegExp (case-insensitive in both).
 */
const REGEX_SHAPES: readonly ((rnd: Random) => string)[] = [
  (r) => `${anyWord(r)}|${anyWord(r)}`,
  (r) => `\\b${anyWord(r)}\\b`,
  (r) => `^${anyWord(r)}`,
  (r) => `${anyWord(r)} ${anyWord(r)}`,
  (r) => `(${anyWord(r)}|${anyWord(r)}) ${anyWord(r)}`,
  (r) => {
    const w = anyWord(r);
    return `${w.slice(0, -1)}${w.slice(-1)}?s?\\b`;
  },
  (r) => `${anyWord(r).slice(0, 3)}[a-z]*${anyWord(r).slice(-2)}`,
  (r) => `${anyWord(r)}.{0,20}${anyWord(r)}`,
];

/** `/search?regex=…&fields=label,description` with `count` distinct patterns. */
export function regexSequence(count = 3000): RequestSequence {
  const rnd = mulberry32(303);
  const patterns = new Set<string>();
  for (let i = 0; patterns.size < count; i++) {
    const shape = REGEX_SHAPES[i % REGEX_SHAPES.length];
    if (shape !== undefined) patterns.add(shape(rnd));
  }
  return limitPasses(
    listSequence(
      [...patterns].map((regex) =>
        get(
          searchPath([
            ['regex', regex],
            ['fields', 'label,description'],
          ]),
        ),
      ),
    ),
  );
}
