/**
 * Merging prepared configs (docs/expression-reference.md §14) without preparing anything again: the
 * result equals `prepareConfig(overlayConfigs(stored))` for the stored configs the parts were prepared from
 * (a property test checks it), but costs only map operations over the keys, because every link, macro and
 * search pattern was already prepared (and compiled) once per stored version.
 *
 * What makes it equal: each part keeps the keys of its stored sections (`PreparedConfig.source`), valid or
 * not. The merge takes every key's value from the last part that has the key; when preparation dropped it
 * there (an invalid link, a macro without a string `linkItems`), it stays dropped, as a later invalid link
 * replaces an earlier valid one in a merge of stored configs.
 */
import type {
  MergeSource,
  PreparedConfig,
  PreparedLink,
  PreparedSearchPattern,
  SearchPatternProblem,
} from '../types.js';

/** Whether `key` is an integer-like property name: JavaScript orders those first, ascending (§7). */
export function isIndexKey(key: string): boolean {
  return /^(?:0|[1-9]\d{0,9})$/.test(key) && Number(key) <= 4_294_967_294;
}

/** `keys` in the order a JavaScript object built by assigning them in turn would list them. */
function objectOrder(keys: Iterable<string>): string[] {
  const indexes: string[] = [];
  const others: string[] = [];
  for (const key of keys) (isIndexKey(key) ? indexes : others).push(key);
  indexes.sort((a, b) => Number(a) - Number(b));
  return [...indexes, ...others];
}

const NO_SOURCE: MergeSource = {
  linkKeys: [],
  macroKeys: null,
  patternKeys: null,
};

/** For each key of one section over all parts: the last part that has it (in its stored section). */
function lastOwners(
  parts: readonly PreparedConfig[],
  keysOf: (source: MergeSource) => readonly string[] | null,
): { owners: Map<string, PreparedConfig>; present: boolean } {
  const owners = new Map<string, PreparedConfig>();
  let present = false;
  for (const part of parts) {
    const keys = keysOf(part.source ?? NO_SOURCE);
    if (keys === null) continue;
    present = true;
    // `set` on a known key keeps its place: the order is first appearance, the value the last owner.
    for (const key of keys) owners.set(key, part);
  }
  return { owners, present };
}

/** The macros of a merge, from each name's last owner (a name its owner dropped stays dropped). */
function ownedMacros(
  owners: ReadonlyMap<string, PreparedConfig>,
): Map<string, string> {
  const macros = new Map<string, string>();
  for (const name of objectOrder(owners.keys())) {
    const items = owners.get(name)?.macros.get(name);
    if (items !== undefined) macros.set(name, items);
  }
  return macros;
}

/** The macros of the merge of `parts` (as {@link mergePrepared} has them), without merging the rest. */
export function mergeMacros(
  parts: readonly PreparedConfig[],
): Map<string, string> {
  return ownedMacros(lastOwners(parts, (s) => s.macroKeys).owners);
}

/**
 * The merge of prepared configs, in order: links by id (the last part that has an id decides its
 * value, the first one its position, integer-like ids first), `macros`, `searchPatterns` and `settings` by
 * key (later wins, a part without the section changes nothing), no `protocols`.
 */
export function mergePrepared(
  parts: readonly PreparedConfig[],
): PreparedConfig {
  const ids: string[] = [];
  const links = new Map<string, PreparedLink>();
  const position = new Map<string, number>();
  const tagIndex = new Map<string, string[]>();
  const droppedIds = new Set<string>();
  const linkOwners = lastOwners(parts, (s) => s.linkKeys).owners;
  const linkKeys = objectOrder(linkOwners.keys());
  for (const id of linkKeys) {
    const link = linkOwners.get(id)?.links.get(id);
    if (link === undefined) {
      if (id.includes('-')) droppedIds.add(id);
      continue;
    }
    position.set(id, ids.length);
    ids.push(id);
    links.set(id, link);
    const tags = link.tags;
    if (tags === undefined) continue;
    for (let t = 0; t < tags.length; t++) {
      const tag = tags[t] as string;
      // Each id once per tag (tag lists are short: a look back beats allocating a Set).
      if (tags.indexOf(tag) !== t) continue;
      const members = tagIndex.get(tag);
      if (members === undefined) tagIndex.set(tag, [id]);
      else members.push(id);
    }
  }

  const macroOwners = lastOwners(parts, (s) => s.macroKeys);
  const macros = ownedMacros(macroOwners.owners);

  const patternOwners = lastOwners(parts, (s) => s.patternKeys);
  const searchPatterns = new Map<string, PreparedSearchPattern>();
  const droppedPatterns = new Map<string, SearchPatternProblem>();
  for (const key of objectOrder(patternOwners.owners.keys())) {
    const owner = patternOwners.owners.get(key);
    const pattern = owner?.searchPatterns.get(key);
    if (pattern !== undefined) searchPatterns.set(key, pattern);
    else {
      const problem = owner?.dropped?.searchPatterns.get(key);
      if (problem !== undefined) droppedPatterns.set(key, problem);
    }
  }

  let settings: Record<string, unknown> | undefined;
  for (const part of parts) {
    if (part.settings === undefined) continue;
    settings ??= {};
    // Prepared settings hold no blocked keys, so plain assignment is safe and orders keys as a merge does.
    for (const key of Object.keys(part.settings)) {
      settings[key] = part.settings[key];
    }
  }

  const droppedTags = new Set<string>();
  for (const part of parts) {
    for (const tag of part.dropped?.tags ?? []) droppedTags.add(tag);
  }

  return {
    ids,
    links,
    position,
    tagIndex,
    macros,
    searchPatterns,
    protocolNames: new Set(),
    settings,
    dropped: {
      ids: droppedIds,
      // Diagnostics only: the tags any part dropped (a later part may have replaced the link).
      tags: droppedTags,
      searchPatterns: droppedPatterns,
    },
    source: {
      linkKeys,
      macroKeys: macroOwners.present ? [...macroOwners.owners.keys()] : null,
      patternKeys: patternOwners.present
        ? [...patternOwners.owners.keys()]
        : null,
    },
  };
}
