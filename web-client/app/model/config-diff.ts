/**
 * The merge the conflict panel offers when the version both sides started from is unknown (every link
 * of both sides; where both have an id, yours wins). What differs between two versions is the one diff
 * of `shared/` (`compareConfigs`), used as it is.
 */
import { threeWayMerge } from '@linkconfig/shared';
import type { LinkConfig } from '@linkconfig/shared';

/**
 * Both versions in one, when the version both started from is unknown: the shared three-way merge
 * (`shared/sync`) over no base, so every link, macro and pattern of either side is kept, and where
 * both hold the same thing differently, mine stays (the merge holds the local side of a conflict).
 */
export function mergeConfigs(mine: LinkConfig, theirs: LinkConfig): LinkConfig {
  return threeWayMerge<LinkConfig>(null, mine, theirs).merged ?? mine;
}
