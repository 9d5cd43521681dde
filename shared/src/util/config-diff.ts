/**
 * The one diff of two configs, for the server's history (counts per revision, `GET …/diff`) and for
 * the page (the conflict panel, what reverting a draft would lose, a revision against its previous
 * one): {@link comparingConfigs} finds what changed and carries the values, in steps a server can run in
 * slices; {@link compareConfigs} runs it at once; {@link diffConfigs} / {@link diffingConfigs} are the same
 * comparison in the shape of the HTTP API (ids and fields only).
 */
import { isPlainObject } from './is-plain-object.js';
import { sameValue } from './same-value.js';
import { runAtOnce } from './slices.js';
import type { Sliced } from './slices.js';
import type {
  ChangeSummary,
  ConfigComparison,
  ConfigDiff,
  ConfigPart,
} from '../schemas/history.js';

/** The parts of a config besides its links that a comparison names on their own. */
const NAMED_PARTS = ['macros', 'searchPatterns', 'settings'] as const;

/** Links compared between two pauses of {@link comparingConfigs}. */
const LINKS_PER_STEP = 64;

const linksOf = (config: unknown): Record<string, unknown> => {
  const links = isPlainObject(config) ? config['allLinks'] : undefined;
  return isPlainObject(links) ? links : {};
};
const part = (config: unknown, key: string): unknown =>
  isPlainObject(config) ? config[key] : undefined;

/** The config without its links and named parts (what `other` compares). */
const rest = (config: unknown): Record<string, unknown> => {
  const copy: Record<string, unknown> = isPlainObject(config)
    ? { ...config }
    : {};
  delete copy['allLinks'];
  for (const name of NAMED_PARTS) delete copy[name];
  return copy;
};

/**
 * What changed from config `before` to config `after` (`null`: no config, as after a delete, counts as
 * one without links or parts): links added, removed, and changed with the fields that differ (a field
 * present on one side only counts) and both sides' values; then the other parts that differ
 * (`macros`, `searchPatterns`, `settings`, and `other` for any further key). Changed ids in the order
 * of `after`.
 */
export function compareConfigs(
  before: unknown,
  after: unknown,
): ConfigComparison {
  return runAtOnce(comparingConfigs(before, after));
}

/**
 * {@link compareConfigs} in steps that may pause every {@link LINKS_PER_STEP} links (`util/slices.ts`), so
 * a server compares two large configs in slices. The configs must not change until it has finished.
 */
export function* comparingConfigs(
  before: unknown,
  after: unknown,
): Sliced<ConfigComparison> {
  const old = linksOf(before);
  const now = linksOf(after);
  const added: string[] = [];
  const changed: ConfigComparison['changed'] = [];
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
    changed.push({
      id,
      fields: keys.filter((k) => !sameValue(a[k], b[k])),
      before: previous,
      after: link,
    });
  }
  const removed: string[] = [];
  for (const id of Object.keys(old)) {
    if (++step % LINKS_PER_STEP === 0) yield;
    if (!Object.hasOwn(now, id)) removed.push(id);
  }
  const parts: ConfigPart[] = NAMED_PARTS.filter(
    (name) => !sameValue(part(before, name), part(after, name)),
  );
  if (!sameValue(rest(before), rest(after))) parts.push('other');
  return { added, removed, changed, parts };
}

/** Whether a comparison found nothing that differs. */
export function isSameComparison(comparison: ConfigComparison): boolean {
  return (
    comparison.added.length +
      comparison.removed.length +
      comparison.changed.length +
      comparison.parts.length ===
    0
  );
}

/** {@link compareConfigs} in the shape of the HTTP API: ids and fields, a flag per named part. */
export function diffConfigs(before: unknown, after: unknown): ConfigDiff {
  return runAtOnce(diffingConfigs(before, after));
}

/** {@link diffConfigs} in steps, as {@link comparingConfigs}. */
export function* diffingConfigs(
  before: unknown,
  after: unknown,
): Sliced<ConfigDiff> {
  const { added, removed, changed, parts } = yield* comparingConfigs(
    before,
    after,
  );
  return {
    added,
    removed,
    changed: changed.map(({ id, fields }) => ({ id, fields })),
    macros: parts.includes('macros'),
    settings: parts.includes('settings'),
    searchPatterns: parts.includes('searchPatterns'),
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
