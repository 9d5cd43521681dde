import { isPlainObject } from './is-plain-object.js';
import { sameValue } from './same-value.js';
import type { ChangeSummary, ConfigDiff } from '../schemas/history.js';

const linksOf = (config: unknown): Record<string, unknown> => {
  const links = isPlainObject(config) ? config['allLinks'] : undefined;
  return isPlainObject(links) ? links : {};
};
const part = (config: unknown, key: string): unknown =>
  isPlainObject(config) ? config[key] : undefined;

/**
 * What changed from config `before` to config `after` (`null`: no config, as after a delete): links
 * added, removed, and changed with the fields that differ (a field present on one side only counts), and
 * whether `macros`, `settings` or `searchPatterns` differ. Ids in the order of `after`, then `before`.
 */
export function diffConfigs(before: unknown, after: unknown): ConfigDiff {
  const old = linksOf(before);
  const now = linksOf(after);
  const added: string[] = [];
  const changed: ConfigDiff['changed'] = [];
  for (const [id, link] of Object.entries(now)) {
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
  const removed = Object.keys(old).filter((id) => !Object.hasOwn(now, id));
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
