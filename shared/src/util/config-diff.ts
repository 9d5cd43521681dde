import { isPlainObject } from './is-plain-object.js';
import { sameValue } from './same-value.js';
import { runAtOnce } from './slices.js';
import type { Sliced } from './slices.js';
import type { ChangeSummary, ConfigDiff } from '../schemas/history.js';

const linksOf = (config: unknown): Record<string, unknown> => {
  const links = isPlainObject(config) ? config['allLinks'] : undefined;
  return isPlainObject(links) ? links : {};
};
const part = (config: unknown, key: string): unknown =>
  isPlainObject(config) ? config[key] : undefined;

/** Links compared between two pauses of {@link diffingConfigs}. */
const LINKS_PER_STEP = 64;

/**
 * What changed from config `before` to config `after` (`null`: no config, as after a delete): links
 * added, removed, and changed with the fields that differ (a field present on one side only counts), and
 * whether `macros`, `settings` or `searchPatterns` differ. Ids in the order of `after`, then `before`.
 */
export function diffConfigs(before: unknown, after: unknown): ConfigDiff {
  return runAtOnce(diffingConfigs(before, after));
}

/**
 * {@link diffConfigs} in steps that may pause every {@link LINKS_PER_STEP} links (`util/slices.ts`), so a
 * server compares two large configs in slices. The configs must not change until it has finished.
 */
export function* diffingConfigs(
  before: unknown,
  after: unknown,
): Sliced<ConfigDiff> {
  const old = linksOf(before);
  const now = linksOf(after);
  const added: string[] = [];
  const changed: ConfigDiff['changed'] = [];
  let step = 0;
  for (const [id, link] of Object.entries(now)) {
    if (++step % LINKS_PER_STEP === 0) yield;
    if (!Object.hasOwn(old, id)) {
      added.push(id);
      continue;
    }
    const previous = old[id];
    if (sameValue(previous, link)) continue;
    const a = isPlainObject(previous) ? previous : {};
    const b = isPlainObject(link) ? link : {};
    const keys = [...new Set([...Object.keys(b), ...Object.keys(a)])];
    changed.push({ id, fields: keys.filter((k) => !sameValue(a[k], b[k])) });
  }
  const removed: string[] = [];
  for (const id of Object.keys(old)) {
    if (++step % LINKS_PER_STEP === 0) yield;
    if (!Object.hasOwn(now, id)) removed.push(id);
  }
  const differs = (key: string) =>
    !sameValue(part(before, key), part(after, key));
  return {
    added,
    removed,
    changed,
    macros: differs('macros'),
    settings: differs('settings'),
    searchPatterns: differs('searchPatterns'),
  };
}

/** The link counts of a diff. */
export function summarizeDiff(diff: ConfigDiff): ChangeSummary {
  return {
    added: diff.added.length,
    removed: diff.removed.length,
    changed: diff.changed.length,
  };
}

/** How many links a config holds (`null`, or no `allLinks` object: none), by the rule the diff reads them. */
export function countLinks(config: unknown): number {
  return Object.keys(linksOf(config)).length;
}
