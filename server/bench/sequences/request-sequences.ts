/**
 * The distinct requests of each scenario. Real clients ask for different words, tags, regexes and
 * expressions, so a scenario is a long, fixed sequence of different requests rather than one request
 * repeated. Every sequence is derived from fixed seeds: each server measured in a run gets the very same
 * requests in the same order. Small requests are built up front; large bodies (PUT, the soak's inline
 * configs) are built on demand from a template and a counter, so a sequence never holds gigabytes.
 */
import { createHash } from 'node:crypto';
import { configName, putBody } from '../dataset.js';

/** One HTTP request as the load generator sends it. */
export interface BenchRequest {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
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

/**
 * Interleaves per-word variant lists: the first variant of every word, then the second of every word, …,
 * so consecutive requests always ask for different words.
 */
export function interleave<T>(groups: readonly (readonly T[])[]): T[] {
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

/** A `GET` of `path`. */
export const get = (path: string): BenchRequest => ({ method: 'GET', path });

/** A `POST` of `path` with `body` as JSON. */
export const post = (path: string, body: unknown): BenchRequest => ({
  method: 'POST',
  path,
  body: JSON.stringify(body),
});

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

/** What two requests share exactly when they are the same request (long bodies hashed). */
export function requestKey(request: BenchRequest): string {
  const body = request.body ?? '';
  const text =
    body.length > 512 ? createHash('sha1').update(body).digest('base64') : body;
  return `${request.method} ${request.path}\n${text}`;
}

/**
 * How many of the first `sent` requests of `sequence` repeat an earlier one: 0 when all are distinct.
 * The benchmark counts this after every measurement, so a sequence that comes round again in a run (and
 * measures a cache a second time) shows in the report.
 */
export function countRepeats(sequence: RequestSequence, sent: number): number {
  const seen = new Set<string>();
  for (let i = 0; i < sent; i++) seen.add(requestKey(sequence.at(i)));
  return sent - seen.size;
}
