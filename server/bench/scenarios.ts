/**
 * The measured scenarios of the HTTP benchmark (issues #9, #23 and #33): each is a sequence of distinct
 * requests (request-sequences.ts) plus the targets set for it, relative to figures measured in the same
 * run: the reference servers (reads ≥ 10× hono and ≥ 2× bun, `GET /configs` within 1.2× of the ceiling,
 * PUT ≥ 1× bun, a one-link PATCH ≥ 10× bun's PUT of the same edit) or, without references, the in-repo
 * baseline (≥ 10× on reads, ≥ 1.5× on PUT). Two mixes: the project's (every word, tag and regex shape in
 * turn) and the common-terms mix (terms drawn by their frequency in the dataset, common-sequences.ts).
 */
import {
  commonRegexSequence,
  commonTagSequence,
  commonWordSequence,
} from './sequences/common-sequences.js';
import { editSequences } from './sequences/patch-sequences.js';
import {
  getSequence,
  putSequence,
  repeated,
} from './sequences/request-sequences.js';
import {
  noMatchSequence,
  regexSequence,
  searchWordSequence,
  tagSequence,
} from './sequences/search-sequences.js';
import {
  cherryPickSequence,
  queryOneSequence,
  queryOverlapSequence,
  queryThreeSequence,
} from './sequences/expression-sequences.js';
import type {
  BenchRequest,
  RequestSequence,
  SequenceScope,
} from './sequences/request-sequences.js';

/**
 * A target: ours ≥ `ratio` × the in-run figure of the column `of`: a reference by name (`hono` matches a
 * reference called `hono` or `hono-ref`), or, only when no reference is measured, `in-repo baseline` or
 * `ceiling`.
 */
export interface Target {
  of: string;
  ratio: number;
}

/** The issues' targets (23, 33) against the references, and the fallback ones of issue 9. */
const READ_TARGETS: readonly Target[] = [
  { of: 'hono', ratio: 10 },
  { of: 'bun', ratio: 2 },
  { of: 'in-repo baseline', ratio: 10 },
];
/** `GET /configs`: within 1.2× of the bare route sending the same bytes (the stack's own limit). */
const LIST_TARGETS: readonly Target[] = [{ of: 'ceiling', ratio: 1 / 1.2 }];
const PUT_TARGETS: readonly Target[] = [
  { of: 'bun', ratio: 1 },
  { of: 'in-repo baseline', ratio: 1.5 },
];
/** Our one-link PATCH against the others' PUT of the same edit. */
const PATCH_TARGETS: readonly Target[] = [
  { of: 'bun', ratio: 10 },
  { of: 'in-repo baseline', ratio: 10 },
];

/** Which request mix a scenario belongs to (each mix gets its own tables). */
export type Mix = 'project' | 'common';

/** One measured scenario. */
export interface Scenario {
  /** Stable id, used in `--only`, in the JSON output and in the ceiling's routes. */
  id: string;
  /** What the tables call it. */
  title: string;
  /** The distinct requests, in the order every server gets them. */
  sequence: RequestSequence;
  targets: readonly Target[];
  /** Whether `--scale` repeats it (all but `GET /configs`, whose answer grows with the data by design). */
  scale: boolean;
  /** Whether it only reads (the `--features` comparison and the hot-cache column measure reads only). */
  read: boolean;
  mix: Mix;
  /**
   * What servers other than ours are sent instead of `sequence`, when they lack what ours offers (the
   * edit scenario: the same edit as a whole-config PUT).
   */
  othersSequence?: RequestSequence;
  /** Requests sent once to a server before its captures and before each measurement (creating configs). */
  setup?: readonly BenchRequest[];
}

/** Every scenario id, in measuring order. */
export const SCENARIO_IDS = [
  'list',
  'get',
  'search-q',
  'search-none',
  'search-tag',
  'search-regex',
  'common-q',
  'common-tag',
  'common-regex',
  'query-one',
  'query-three',
  'query-overlap',
  'cherry-pick',
  'put',
  'patch',
] as const;

/** The size of the PUT bodies. */
export const PUT_BYTES = 120 * 1024;

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
    targets: READ_TARGETS,
    scale: true,
    read: true,
    mix: 'project',
  });
  const common = (
    id: (typeof SCENARIO_IDS)[number],
    title: string,
    sequence: RequestSequence,
  ): Scenario => ({ ...read(id, title, sequence), mix: 'common' });
  const edits = editSequences();
  const overlap = queryOverlapSequence();
  return [
    {
      id: 'list',
      title: 'GET /configs',
      sequence: repeated({ method: 'GET', path: '/configs' }),
      targets: LIST_TARGETS,
      scale: false,
      read: true,
      mix: 'project',
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
    common('common-q', '/search?q= common word', commonWordSequence()),
    common('common-tag', '/search?tag= common tag', commonTagSequence()),
    common(
      'common-regex',
      '/search?regex=\\b(A\\|B)\\s+\\w+ common words, label+description',
      commonRegexSequence(),
    ),
    read('query-one', 'POST /query, one config', queryOneSequence(scope)),
    read(
      'query-three',
      'POST /query, three configs',
      queryThreeSequence(scope),
    ),
    {
      ...read(
        'query-overlap',
        'POST /query, 3 of 8 partly overlapping configs',
        overlap.sequence,
      ),
      setup: overlap.setup,
      // Its own configs, the same at every point: nothing grows with the dataset.
      scale: false,
    },
    read('cherry-pick', 'POST /cherry-pick', cherryPickSequence(scope)),
    {
      id: 'put',
      title: 'PUT 120 KB',
      sequence: putSequence(PUT_BYTES),
      targets: PUT_TARGETS,
      scale: true,
      read: false,
      mix: 'project',
    },
    {
      id: 'patch',
      title: 'PATCH one link of 500 (others: PUT of the same edit)',
      sequence: edits.patch,
      othersSequence: edits.put,
      setup: edits.setup,
      targets: PATCH_TARGETS,
      scale: false,
      read: false,
      mix: 'project',
    },
  ];
}
