/**
 * The measured requests, and the targets of issue #6. A scenario is one HTTP request, repeated by
 * autocannon on every connection; its body (if any) is fixed.
 */
import { configName } from './dataset.js';
import { NO_MATCH_WORD, TAGS, WORDS } from './vocabulary.js';

/** One measured request. */
export interface Scenario {
  /** Stable id, used in `--only`, in the JSON output and as the ceiling's route. */
  id: string;
  /** What the table calls it. */
  title: string;
  method: 'GET' | 'POST' | 'PUT';
  /** Path and query string. */
  path: string;
  body?: string;
  /** Req/s of the reference servers (issue #6), when the issue gives one. */
  reference?: number;
  /** Req/s the issue asks for, when it gives one. */
  target?: number;
  /** Whether `--scale` repeats it (the search and query scenarios). */
  scale: boolean;
}

/** The vocabulary's most common word: `/search?q=` finds it in many links of every config. */
export const COMMON_WORD = WORDS[0] ?? 'guide';
/** A mid-frequency tag for `/search?tag=`. */
export const SEARCH_TAG = TAGS[5] ?? 'park';
/** The expression of the `/query` scenarios (the example shape). */
export const QUERY_EXPRESSION = `.${TAGS[0] ?? 'nyc'} + .${TAGS[1] ?? 'sf'} | l5`;
/** The expression of the `/cherry-pick` scenario: a macro, an operator and an id list. */
export const CHERRY_PICK_EXPRESSION = `@favorites - .${TAGS[2] ?? 'coffee'}, l7, l8`;
/** The regex of `/search?regex=`: a plain alternation of two common words. */
export const SEARCH_REGEX = `${WORDS[2] ?? 'coffee'}|${WORDS[26] ?? 'tea'}`;

const JSON_HEADERS = { 'content-type': 'application/json' };
/** Headers autocannon sends with a scenario that has a body. */
export const bodyHeaders = (s: Scenario): Record<string, string> =>
  s.body === undefined ? {} : JSON_HEADERS;

/** The name of the config the PUT scenario overwrites (not part of the dataset). */
export const PUT_NAME = 'bench-put';

/**
 * The scenarios for a dataset of `configs` configs, in measuring order (the PUT last, since it adds a
 * config). Single-config scenarios use config 5 (or the last one), so the scale points stay comparable.
 */
export function buildScenarios(options: {
  configs: number;
  putBody: string;
}): Scenario[] {
  const pick = (i: number) => configName(Math.min(i, options.configs - 1));
  const one = pick(5);
  const three = [pick(1), pick(2), pick(3)];
  const q = (params: Record<string, string>) =>
    `/search?${new URLSearchParams(params).toString()}`;
  return [
    {
      id: 'list',
      title: 'GET /configs',
      method: 'GET',
      path: '/configs',
      reference: 11_855,
      target: 11_855,
      scale: false,
    },
    {
      id: 'get',
      title: 'GET /configs/:name',
      method: 'GET',
      path: `/configs/${encodeURIComponent(one)}`,
      reference: 1013,
      target: 10_000,
      scale: false,
    },
    {
      id: 'search-q',
      title: '/search?q= common word',
      method: 'GET',
      path: q({ q: COMMON_WORD }),
      reference: 1052,
      target: 10_000,
      scale: true,
    },
    {
      id: 'search-none',
      title: '/search?q= no match',
      method: 'GET',
      path: q({ q: NO_MATCH_WORD }),
      reference: 30,
      target: 3000,
      scale: true,
    },
    {
      id: 'search-tag',
      title: '/search?tag=',
      method: 'GET',
      path: q({ tag: SEARCH_TAG }),
      reference: 569,
      target: 5000,
      scale: true,
    },
    {
      id: 'search-regex',
      title: '/search?regex= label,description',
      method: 'GET',
      path: q({ regex: SEARCH_REGEX, fields: 'label,description' }),
      scale: true,
    },
    {
      id: 'query-one',
      title: 'POST /query, one config',
      method: 'POST',
      path: '/query',
      body: JSON.stringify({ expression: QUERY_EXPRESSION, configName: one }),
      reference: 429,
      target: 4000,
      scale: true,
    },
    {
      id: 'query-three',
      title: 'POST /query, three configs',
      method: 'POST',
      path: '/query',
      body: JSON.stringify({ expression: QUERY_EXPRESSION, configs: three }),
      reference: 114,
      target: 1000,
      scale: true,
    },
    {
      id: 'cherry-pick',
      title: 'POST /cherry-pick',
      method: 'POST',
      path: '/cherry-pick',
      body: JSON.stringify({ source: one, expression: CHERRY_PICK_EXPRESSION }),
      reference: 358,
      target: 3500,
      scale: false,
    },
    {
      id: 'put',
      title: 'PUT 120 KB',
      method: 'PUT',
      path: `/configs/${PUT_NAME}`,
      body: options.putBody,
      reference: 778,
      target: 1000,
      scale: false,
    },
  ];
}
