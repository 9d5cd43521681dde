/**
 * The distinct requests of each scenario. Real clients ask for different words, tags, regexes and
 * expressions, so a scenario is a long, fixed sequence of different requests rather than one request
 * repeated. Every sequence is derived from fixed seeds: each server measured in a run gets the very same
 * requests in the same order. Small requests are built up front; large bodies (PUT, the soak's inline
 * configs) are built on demand from a template and a counter, so a sequence never holds gigabytes.
 */
import { configName, generateConfig, putBody } from './dataset.js';
import { mulberry32, randomInt } from './prng.js';
import type { Random } from './prng.js';
import { TAGS, WORDS } from './vocabulary.js';

/** One HTTP request as the load generator sends it. */
export interface BenchRequest {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** Path and query string. */
  path: string;
  body?: string;
}

/** A fixed list of distinct requests, indexed from 0; `at(i)` is the same request on every call. */
export interface RequestSequence {
  readonly size: number;
  at(index: number): BenchRequest;
}

/** What the generators need to know about the loaded dataset. */
export interface SequenceScope {
  /** How many dataset configs requests may name (`bench-000` … ). */
  configs: number;
  /** Links per config (link ids `l0` … `l<links-1>`). */
  links: number;
}

/** A sequence over a list built up front. */
export function listSequence(
  requests: readonly BenchRequest[],
): RequestSequence {
  if (requests.length === 0) throw new Error('a sequence needs a request');
  return {
    size: requests.length,
    at: (index) => requests[index % requests.length] as BenchRequest,
  };
}

/** The one-request sequence: the same request every time (the "hot cache" column, `GET /configs`). */
export const repeated = (request: BenchRequest): RequestSequence =>
  listSequence([request]);

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
 * Interleaves per-word variant lists: the first variant of every word, then the second of every word, …,
 * so consecutive requests always ask for different words.
 */
function interleave<T>(groups: readonly (readonly T[])[]): T[] {
  const out: T[] = [];
  const longest = Math.max(0, ...groups.map((g) => g.length));
  for (let i = 0; i < longest; i++) {
    for (const group of groups) {
      const item = group[i];
      if (item !== undefined) out.push(item);
    }
  }
  return out;
}

const get = (path: string): BenchRequest => ({ method: 'GET', path });

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
  return listSequence(interleave(groups));
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
  return listSequence(
    noMatchWords(count).map((q, i) =>
      get(
        searchPath([
          ['q', q],
          ['fields', ALL_FIELD_ORDERS[i % ALL_FIELD_ORDERS.length]],
        ]),
      ),
    ),
  );
}

/** Result limits a tag search is asked with (`undefined`: the default, 100). */
const TAG_LIMITS = [undefined, 100, 50, 200, 25] as const;

/**
 * `/search?tag=` for every tag of the vocabulary, with several `limit`s, the parameters in both orders.
 * Tags are matched exactly (case-sensitive), so they are never re-spelled.
 */
export function tagSequence(): RequestSequence {
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
  return listSequence(
    [...patterns].map((regex) =>
      get(
        searchPath([
          ['regex', regex],
          ['fields', 'label,description'],
        ]),
      ),
    ),
  );
}

/** A tag drawn with a bias to the common ones (so most expressions select something). */
const someTag = (rnd: Random): string =>
  TAGS[Math.floor(TAGS.length * rnd() ** 2)] ?? 'nyc';

/**
 * Expression shapes over the dataset's tags, link ids, macros (`@favorites`, `@picks`, `@recent`), search
 * patterns (`/p0/`) and refiners. None reaches the clock or chance, so every server must give the same
 * answer to the same request.
 */
const EXPRESSION_SHAPES: readonly ((rnd: Random, links: number) => string)[] = [
  (r, n) => `.${someTag(r)} + .${someTag(r)} | l${randomInt(r, 0, n - 1)}`,
  (r) => `.${someTag(r)} | .${someTag(r)} *limit:${randomInt(r, 5, 40)}*`,
  (r) => `@favorites - .${someTag(r)}`,
  (r, n) =>
    `(.${someTag(r)} | .${someTag(r)}) + .${someTag(r)}, l${randomInt(r, 0, n - 1)}`,
  (r) =>
    `.${someTag(r)} - .${someTag(r)} *sort:label* *limit:${randomInt(r, 10, 30)}*`,
  (r) => `@picks, .${someTag(r)} *skip:${randomInt(r, 1, 5)}*`,
  (r) => `/p0/ | .${someTag(r)}`,
  (r) =>
    `.${someTag(r)} *sort:createdAt* *reverse* *limit:${randomInt(r, 5, 20)}*`,
  (r) => `@recent | .${someTag(r)} + .${someTag(r)}`,
  (r, n) => {
    const ids = Array.from(
      { length: randomInt(r, 2, 6) },
      () => `l${randomInt(r, 0, n - 1)}`,
    );
    return `${ids.join(', ')}, .${someTag(r)} *unique*`;
  },
];

/** `count` distinct expressions for a dataset with `links` links per config. */
export function expressions(
  count: number,
  options: { links: number; seed: number },
): string[] {
  const rnd = mulberry32(options.seed);
  const out = new Set<string>();
  for (let i = 0; out.size < count && i < count * 50; i++) {
    const shape = EXPRESSION_SHAPES[i % EXPRESSION_SHAPES.length];
    if (shape !== undefined) out.add(shape(rnd, options.links));
  }
  return [...out];
}

const post = (path: string, body: unknown): BenchRequest => ({
  method: 'POST',
  path,
  body: JSON.stringify(body),
});

/** How many distinct requests the expression scenarios cycle through. */
const EXPRESSION_REQUESTS = 4000;

/** `POST /query` on one stored config: distinct expressions, the configs taken in turn. */
export function queryOneSequence(scope: SequenceScope): RequestSequence {
  return listSequence(
    expressions(EXPRESSION_REQUESTS, { links: scope.links, seed: 404 }).map(
      (expression, i) =>
        post('/query', {
          expression,
          configName: configName(i % scope.configs),
        }),
    ),
  );
}

/**
 * Three distinct names out of `configs` for request `i`: consecutive requests get different sets, and
 * the order within a set varies (the merge depends on it).
 */
export function threeConfigs(i: number, configs: number): string[] {
  if (configs < 3) return [0, 1, 2].map((k) => configName(k % configs));
  const a = i % configs;
  const step = 1 + (Math.floor(i / configs) % (configs - 1));
  const b = (a + step) % configs;
  let c = (b + step) % configs;
  if (c === a) c = (c + 1) % configs;
  if (c === b) c = (c + 1) % configs;
  return [a, b, c].map(configName);
}

/** `POST /query` merging three stored configs: distinct expressions over changing sets of configs. */
export function queryThreeSequence(scope: SequenceScope): RequestSequence {
  return listSequence(
    expressions(EXPRESSION_REQUESTS, { links: scope.links, seed: 505 }).map(
      (expression, i) =>
        post('/query', { expression, configs: threeConfigs(i, scope.configs) }),
    ),
  );
}

/** `POST /cherry-pick` from stored configs: distinct expressions, the configs taken in turn. */
export function cherryPickSequence(scope: SequenceScope): RequestSequence {
  return listSequence(
    expressions(EXPRESSION_REQUESTS, { links: scope.links, seed: 606 }).map(
      (expression, i) =>
        post('/cherry-pick', {
          source: configName((i * 7) % scope.configs),
          expression,
        }),
    ),
  );
}

/** `GET /configs/:name` for every config of the dataset, in turn. */
export function getSequence(scope: SequenceScope): RequestSequence {
  return listSequence(
    Array.from({ length: scope.configs }, (_, i) =>
      get(`/configs/${encodeURIComponent(configName(i))}`),
    ),
  );
}

/** Where a template's counter goes: a link label, so the body stays a valid config. */
const MARK = 'BENCH_COUNTER_MARK';

/**
 * A config JSON text split around a counter: `prefix + n + suffix` is a distinct, valid config for
 * every `n`, built by one string concatenation (no generation per request).
 */
export interface CountedTemplate {
  prefix: string;
  suffix: string;
}

/** Makes a template from a config JSON text: the first link's label gets a counter. */
export function countedTemplate(json: string): CountedTemplate {
  const config = JSON.parse(json) as {
    allLinks: Record<string, { label?: string }>;
  };
  const first = Object.values(config.allLinks)[0];
  if (first === undefined) throw new Error('the template config needs a link');
  first.label = `Saved ${MARK}`;
  const [prefix = '', suffix = ''] = JSON.stringify(config).split(MARK);
  return { prefix, suffix };
}

/** Config names the PUT scenario writes (outside the dataset, so reads are not affected). */
export const PUT_NAMES = Array.from({ length: 8 }, (_, i) => `bench-put-${i}`);

/**
 * `PUT /configs/:name` with a distinct body of at least `minBytes` each time (one link label carries the
 * request number), spread over {@link PUT_NAMES} as several editors saving their configs would.
 */
export function putSequence(minBytes: number): RequestSequence {
  const template = countedTemplate(putBody(minBytes));
  return {
    size: 1_000_000_000,
    at: (i) => ({
      method: 'PUT',
      path: `/configs/${PUT_NAMES[i % PUT_NAMES.length] ?? 'bench-put-0'}`,
      body: `${template.prefix}${i}${template.suffix}`,
    }),
  };
}

/**
 * `POST /query` with an inline config of about `bytes` (the memory soak): distinct content every time
 * (a counter in a label, four base configs taken in turn), every other request merged after a stored
 * config, with a changing expression.
 */
export function inlineQuerySequence(options: {
  bytes: number;
  links: number;
  stored: number;
}): RequestSequence {
  const perLink = 240;
  const linkCount = Math.max(1, Math.round(options.bytes / perLink));
  const templates = [1, 2, 3, 4].map((k) =>
    countedTemplate(
      JSON.stringify(generateConfig({ links: linkCount, seed: 9000 + k })),
    ),
  );
  const exprs = expressions(500, {
    links: Math.min(linkCount, options.links),
    seed: 707,
  });
  return {
    size: 1_000_000_000,
    at: (i) => {
      const template = templates[i % templates.length] as CountedTemplate;
      const inline = `${template.prefix}${i}${template.suffix}`;
      const expression = JSON.stringify(exprs[i % exprs.length] ?? '.nyc');
      const stored = JSON.stringify(configName(i % options.stored));
      const configs = i % 2 === 0 ? `[${inline}]` : `[${stored},${inline}]`;
      return {
        method: 'POST',
        path: '/query',
        body: `{"expression":${expression},"configs":${configs}}`,
      };
    },
  };
}

/**
 * All requests of several sequences, interleaved (one of each in turn while they last): for the soak's
 * mix of searches. Builds the whole list, so only for sequences of small requests.
 */
export function mixSequences(
  sequences: readonly RequestSequence[],
): RequestSequence {
  return listSequence(
    interleave(
      sequences.map((s) => Array.from({ length: s.size }, (_, i) => s.at(i))),
    ),
  );
}
