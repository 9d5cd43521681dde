/** What reverting a draft to its saved version would lose, in words for the question that asks first. */
import { compareConfigs } from '@linkconfig/shared';
import type { LinkConfig } from '@linkconfig/shared';

/** Names of the parts other than links, as the question says them. */
const PARTS: Record<string, string> = {
  macros: 'macros',
  searchPatterns: 'search patterns',
  settings: 'settings',
  other: 'other fields',
};

/** How many ids are named before "and N more". */
const NAMED = 5;

/**
 * What `draft` has that `saved` does not: links added, removed and changed (a few named), and other
 * parts changed. An empty list when they are the same.
 */
export function draftLosses(draft: LinkConfig, saved: LinkConfig): string[] {
  const diff = compareConfigs(saved, draft);
  const losses: string[] = [];
  const some = (ids: string[], what: string) => {
    if (ids.length === 0) return;
    const named = ids.slice(0, NAMED).map((id) => `“${id}”`);
    const more = ids.length > NAMED ? ` and ${ids.length - NAMED} more` : '';
    losses.push(
      `${ids.length} ${ids.length === 1 ? 'link' : 'links'} ${what} (${named.join(', ')}${more})`,
    );
  };
  some(diff.added, 'added');
  some(diff.removed, 'deleted');
  some(
    diff.changed.map((change) => change.id),
    'changed',
  );
  const parts = diff.parts.map((part) => PARTS[part] ?? part);
  if (parts.length > 0) losses.push(`changes to ${parts.join(', ')}`);
  return losses;
}
