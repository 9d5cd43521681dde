import { z } from 'zod';
import type { LinkConfig } from './link-config.js';
import { isPlainObject } from '../util/is-plain-object.js';
import { runAtOnce } from '../util/slices.js';
import type { Sliced } from '../util/slices.js';

/*
 * The acceptance check for a stored config. It is deliberately narrower than LinkConfigSchema: it checks
 * only what every implementation of the contract needs, and it never builds a new object, so what it
 * accepts is stored byte for byte. It is one hand-written walk (the rules are few, and a PUT of a large
 * config runs it on every write): the section rules, and optionally a bound on nesting depth, in one pass.
 */

/** One problem: where (path segments) and why (a predicate phrased without the field name). */
interface Problem {
  readonly path: readonly PropertyKey[];
  readonly reason: string;
}

const SECTIONS = ['allLinks', 'macros', 'searchPatterns', 'settings'] as const;

/** The rule each entry of a section must follow, or `null` when entries are free (settings). */
function entryProblem(
  section: (typeof SECTIONS)[number],
  entry: unknown,
): Problem | null {
  switch (section) {
    case 'allLinks':
      if (!isPlainObject(entry))
        return { path: [], reason: 'must be an object' };
      return typeof entry['url'] === 'string'
        ? null
        : { path: ['url'], reason: 'must be a string' };
    case 'macros':
      if (!isPlainObject(entry))
        return { path: [], reason: 'must be an object' };
      return typeof entry['linkItems'] === 'string'
        ? null
        : { path: ['linkItems'], reason: 'must be a string' };
    case 'searchPatterns':
      return typeof entry === 'string' ||
        (isPlainObject(entry) && typeof entry['pattern'] === 'string')
        ? null
        : {
            path: [],
            reason: 'must be a string or an object with a string pattern',
          };
    case 'settings':
      return null;
  }
}

/** Entries or nodes checked between two points where a check may pause (`util/slices.ts`). */
const CHECKS_PER_STEP = 1024;

/** The first broken section rule, in section order and then key order, or `null`. */
function* firstProblem(config: unknown): Sliced<Problem | null> {
  if (!isPlainObject(config)) {
    return { path: [], reason: 'config must be a JSON object' };
  }
  for (const section of SECTIONS) {
    if (!Object.hasOwn(config, section)) {
      if (section === 'allLinks')
        return { path: [section], reason: 'is required' };
      continue;
    }
    const value = config[section];
    if (!isPlainObject(value))
      return { path: [section], reason: 'must be an object' };
    if (section === 'settings') continue;
    let step = 0;
    for (const key of Object.keys(value)) {
      if (++step % CHECKS_PER_STEP === 0) yield;
      const problem = entryProblem(section, value[key]);
      if (problem !== null) {
        return {
          path: [section, key, ...problem.path],
          reason: problem.reason,
        };
      }
    }
  }
  return null;
}

/**
 * Whether `entry` may stand as a member of a stored config's `allLinks` ({@link validateLinkConfig}'s rule
 * for a link), its nesting within `maxDepth` once placed in a config (the config and `allLinks` are the
 * two levels above it).
 */
export function isStoredLinkEntry(entry: unknown, maxDepth: number): boolean {
  return (
    entryProblem('allLinks', entry) === null &&
    !nestedDeeper(entry, maxDepth - 2)
  );
}

/** Whether objects and arrays nest deeper than `maxDepth` (an explicit stack: no recursion). */
export function nestedDeeper(value: unknown, maxDepth: number): boolean {
  return runAtOnce(deeperThan(value, maxDepth));
}

/** {@link nestedDeeper} as steps that may pause between nodes. */
function* deeperThan(value: unknown, maxDepth: number): Sliced<boolean> {
  if (typeof value !== 'object' || value === null) return false;
  const nodes: object[] = [value];
  const depths: number[] = [1];
  let step = 0;
  for (let node = nodes.pop(); node !== undefined; node = nodes.pop()) {
    if (++step % CHECKS_PER_STEP === 0) yield;
    const depth = depths.pop() ?? 1;
    if (depth > maxDepth) return true;
    // Parsed JSON has only own, enumerable, plain data properties: `for…in` reads them without copying.
    const record = node as Record<string, unknown>;
    for (const key in record) {
      const child = record[key];
      if (typeof child === 'object' && child !== null) {
        nodes.push(child);
        depths.push(depth + 1);
      }
    }
  }
  return false;
}

/**
 * A zod view of {@link validateLinkConfig}, for composing with other schemas: the same rules, the same
 * first problem, and the value passed through unchanged.
 */
export const StoredLinkConfigSchema = z
  .custom<LinkConfig>()
  .superRefine((config, ctx) => {
    const problem = runAtOnce(firstProblem(config));
    if (problem !== null) {
      ctx.addIssue({
        code: 'custom',
        message: problem.reason,
        path: [...problem.path],
      });
    }
  });

/** Formats a path as `allLinks.home.url`, quoting keys that are not plain identifiers. */
export function formatPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const segment of path) {
    if (typeof segment === 'number') out += `[${segment}]`;
    else if (typeof segment === 'string' && /^[A-Za-z_$][\w$]*$/.test(segment))
      out += out === '' ? segment : `.${segment}`;
    else out += `[${JSON.stringify(String(segment))}]`;
  }
  return out;
}

/** The outcome of {@link validateLinkConfig}. */
export type ConfigValidation =
  { ok: true; config: LinkConfig } | { ok: false; error: string; path: string };

/** Options of {@link validateLinkConfig}. */
export interface ValidateOptions {
  /** Refuse configs whose objects and arrays nest deeper than this (checked in the same call). */
  readonly maxDepth?: number;
  /**
   * The value's nesting depth when the caller already knows it (a scan of the text it was parsed
   * from, `inspectJsonText`): the check then compares it instead of walking the value again.
   */
  readonly depth?: number;
}

/**
 * Checks that a value may be stored as a config, without changing it.
 *
 * On success the same object comes back (not a copy), typed as a config; on failure the first problem is
 * named by path and reason, e.g. `allLinks.home.url must be a string`.
 *
 * @example
 * const r = validateLinkConfig(JSON.parse(body));
 * if (!r.ok) return badRequest(r.error);
 */
export function validateLinkConfig(
  value: unknown,
  options: ValidateOptions = {},
): ConfigValidation {
  return runAtOnce(validatingLinkConfig(value, options));
}

/**
 * {@link validateLinkConfig} as steps that may pause between the entries and nodes of a large config, so
 * a server checks one (a patched config, whose depth no text scan told) in slices (`util/slices.ts`).
 */
export function* validatingLinkConfig(
  value: unknown,
  options: ValidateOptions = {},
): Sliced<ConfigValidation> {
  const problem = yield* firstProblem(value);
  if (problem === null) {
    const { maxDepth, depth } = options;
    if (
      maxDepth !== undefined &&
      (depth === undefined
        ? yield* deeperThan(value, maxDepth)
        : depth > maxDepth)
    ) {
      return {
        ok: false,
        path: '',
        error: `the config is nested deeper than ${maxDepth} levels`,
      };
    }
    return { ok: true, config: value as LinkConfig };
  }
  const path = formatPath(problem.path);
  return {
    ok: false,
    path,
    error: path === '' ? problem.reason : `${path} ${problem.reason}`,
  };
}
