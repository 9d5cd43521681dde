/**
 * Comparing two versions of a config, as pure functions: which links only one side has and which both
 * have with different contents (what the conflict panel shows), whether anything else differs, and the
 * merge the panel offers (every link of both sides; where both have an id, yours wins).
 */
import { sameValue, threeWayMerge } from '@linkconfig/shared';
import type { Link, LinkConfig } from '@linkconfig/shared';

/** A link both versions have, with different contents. */
export interface ChangedLink {
  id: string;
  mine: Link;
  theirs: Link;
}

/** How two versions of a config differ, seen from "mine" (this browser) against "theirs" (the server). */
export interface ConfigDiff {
  /** Ids only my version has, in my order. */
  onlyMine: string[];
  /** Ids only their version has, in their order. */
  onlyTheirs: string[];
  /** Ids both have with different contents, in my order. */
  changed: ChangedLink[];
  /** Other parts that differ: `macros`, `searchPatterns`, `settings`, or `other` (any further key). */
  otherParts: string[];
}

/** Top-level keys the diff names on their own; the rest count as `other`. */
const PARTS = ['macros', 'searchPatterns', 'settings'] as const;

/**
 * How `mine` differs from `theirs`. A missing version (`null`: deleted on that side) counts as a config
 * without links, so every link of the other side is "only" there.
 */
export function diffConfigs(
  mine: LinkConfig | null,
  theirs: LinkConfig | null,
): ConfigDiff {
  const myLinks = mine?.allLinks ?? {};
  const theirLinks = theirs?.allLinks ?? {};
  const onlyMine: string[] = [];
  const changed: ChangedLink[] = [];
  for (const [id, link] of Object.entries(myLinks)) {
    if (!Object.hasOwn(theirLinks, id)) onlyMine.push(id);
    else {
      const other = theirLinks[id];
      if (other !== undefined && !sameValue(link, other))
        changed.push({ id, mine: link, theirs: other });
    }
  }
  const onlyTheirs = Object.keys(theirLinks).filter(
    (id) => !Object.hasOwn(myLinks, id),
  );
  const otherParts: string[] =
    mine === null || theirs === null
      ? []
      : PARTS.filter((part) => !sameValue(mine[part], theirs[part]));
  if (mine !== null && theirs !== null && !sameValue(rest(mine), rest(theirs)))
    otherParts.push('other');
  return { onlyMine, onlyTheirs, changed, otherParts };
}

/** Whether the two versions hold the same links and everything else alike. */
export function isSameConfig(diff: ConfigDiff): boolean {
  return (
    diff.onlyMine.length === 0 &&
    diff.onlyTheirs.length === 0 &&
    diff.changed.length === 0 &&
    diff.otherParts.length === 0
  );
}

/**
 * Both versions in one, when the version both started from is unknown: the shared three-way merge
 * (`shared/sync`) over no base, so every link, macro and pattern of either side is kept, and where
 * both hold the same thing differently, mine stays (the merge holds the local side of a conflict).
 */
export function mergeConfigs(mine: LinkConfig, theirs: LinkConfig): LinkConfig {
  return threeWayMerge<LinkConfig>(null, mine, theirs).merged ?? mine;
}

/** The config without the parts compared on their own. */
function rest(config: LinkConfig): Record<string, unknown> {
  const copy: Record<string, unknown> = { ...config };
  delete copy['allLinks'];
  for (const part of PARTS) delete copy[part];
  return copy;
}
