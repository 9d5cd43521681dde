/**
 * Laying several stored configs over each other (docs/expression-reference.md §14, D2): an overlay,
 * later wins, not a merge of edits (that is the three-way merge of `shared/src/sync/`). The result is a
 * RAW config: prepare it once with `prepareConfig`, so a later invalid link still replaces an earlier
 * valid one.
 */
import { isPlainObject } from '../../util/is-plain-object.js';
import { BLOCKED_KEYS } from './clean-value.js';

/** Sections merged by key, later wins, only when a config has them. */
const KEYED_SECTIONS = ['macros', 'searchPatterns', 'settings'] as const;

/** Copies the own keys of `from` into `into` (later wins, first position kept), skipping blocked keys. */
function assignKeys(
  into: Record<string, unknown>,
  from: Record<string, unknown>,
): void {
  for (const key of Object.keys(from)) {
    if (!BLOCKED_KEYS.has(key)) into[key] = from[key];
  }
}

/**
 * Overlays configs in order, starting from an empty `allLinks`: links by id (the later config replaces
 * the whole link, the id keeps its first position), `macros`, `searchPatterns` and `settings` by key.
 * `protocols` and other top-level keys are not carried. A config without `allLinks`, or a value that is
 * not an object, contributes no links.
 */
export function overlayConfigs(
  configs: readonly unknown[],
): Record<string, unknown> {
  const allLinks: Record<string, unknown> = {};
  const merged: Record<string, unknown> = { allLinks };
  for (const config of configs) {
    if (!isPlainObject(config)) continue;
    if (
      Object.hasOwn(config, 'allLinks') &&
      isPlainObject(config['allLinks'])
    ) {
      assignKeys(allLinks, config['allLinks']);
    }
    for (const section of KEYED_SECTIONS) {
      const value = Object.hasOwn(config, section)
        ? config[section]
        : undefined;
      if (!isPlainObject(value)) continue;
      const existing = merged[section];
      const target = isPlainObject(existing) ? existing : {};
      merged[section] = target;
      assignKeys(target, value);
    }
  }
  return merged;
}
