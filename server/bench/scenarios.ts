/**
 * The measured scenarios of the HTTP benchmark (issue #9): each is a sequence of distinct requests
 * (request-sequences.ts) plus the target the issue sets for it, relative to a figure measured in the same
 * run: the baseline server (≥ 10× on reads, ≥ 1.5× on PUT) or, for `GET /configs`, which is bounded by
 * the HTTP stack, the ceiling (≥ 0.8×).
 */
import { getSequence, putSequence, repeated } from './request-sequences.js';
import {
  noMatchSequence,
  regexSequence,
  searchWordSequence,
  tagSequence,
} from './search-sequences.js';
import {
  cherryPickSequence,
  queryOneSequence,
  queryThreeSequence,
} from './expression-sequences.js';
import type { RequestSequence, SequenceScope } from './request-sequences.js';

/** What a target is relative to. */
export const TARGET_OF = {
  baseline: 'baseline',
  ceiling: 'ceiling',
} as const;

/** A target: ours ≥ `ratio` × the named in-run figure. */
export interface Target {
  of: (typeof TARGET_OF)[keyof typeof TARGET_OF];
  ratio: number;
}

/** One measured scenario. */
export interface Scenario {
  /** Stable id, used in `--only`, in the JSON output and in the ceiling's routes. */
  id: string;
  /** What the tables call it. */
  title: string;
  /** The distinct requests, in the order every server gets them. */
  sequence: RequestSequence;
  target: Target;
  /** Whether `--scale` repeats it (all but `GET /configs`, whose answer grows with the data by design). */
  scale: boolean;
  /** Whether it only reads (the `--features` comparison and the hot-cache column measure reads only). */
  read: boolean;
}

/** Every scenario id, in measuring order. */
export const SCENARIO_IDS = [
  'list',
  'get',
  'search-q',
  'search-none',
  'search-tag',
  'search-regex',
  'query-one',
  'query-three',
  'cherry-pick',
  'put',
] as const;

/** The size of the PUT bodies. */
export const PUT_BYTES = 120 * 1024;

const vsBaseline = (ratio: number): Target => ({
  of: TARGET_OF.baseline,
  ratio,
});

/**
 * The scenarios over a dataset, in measuring order (the PUT last: it adds configs). `scope.configs` is the
 * number of configs the requests name: the whole dataset in the main run, the smallest scale point in
 * `--scale` (so every point gets the same requests).
 */
export function buildScenarios(scope: SequenceScope): Scenario[] {
  const read = (
    id: (typeof SCENARIO_IDS)[number],
    title: string,
    sequence: RequestSequence,
  ): Scenario => ({
    id,
    title,
    sequence,
    target: vsBaseline(10),
    scale: true,
    read: true,
  });
  return [
    {
      id: 'list',
      title: 'GET /configs',
      sequence: repeated({ method: 'GET', path: '/configs' }),
      target: { of: TARGET_OF.ceiling, ratio: 0.8 },
      scale: false,
      read: true,
    },
    read(
      'get',
      `GET /configs/:name (${scope.configs} names)`,
      getSequence(scope),
    ),
    read(
      'search-q',
      '/search?q= words × cases × field orders',
      searchWordSequence(),
    ),
    read('search-none', '/search?q= no match', noMatchSequence()),
    read('search-tag', '/search?tag=', tagSequence()),
    read(
      'search-regex',
      '/search?regex=…&fields=label,description',
      regexSequence(),
    ),
    read('query-one', 'POST /query, one config', queryOneSequence(scope)),
    read(
      'query-three',
      'POST /query, three configs',
      queryThreeSequence(scope),
    ),
    read('cherry-pick', 'POST /cherry-pick', cherryPickSequence(scope)),
    {
      id: 'put',
      title: 'PUT 120 KB',
      sequence: putSequence(PUT_BYTES),
      target: vsBaseline(1.5),
      scale: true,
      read: false,
    },
  ];
}
