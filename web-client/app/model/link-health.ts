/**
 * What the page makes of the server's link health (docs/link-health.md), as pure functions: which
 * health applies to a link of the draft (none once its URL was edited), the facets "Broken" and
 * "Moved", the fixes that "Use the new URL" applies, and the evidence in words.
 */
import type { Link, LinkHealthEntry, LinkState } from '@linkconfig/shared';
import { isConfirmedFailure } from '@linkconfig/shared';

/** The facets of the link filter that narrow by health. */
export type HealthFacet = 'broken' | 'moved';

/** Each facet's words and the states it holds. */
export const HEALTH_FACETS: Record<
  HealthFacet,
  { label: string; has(state: LinkState): boolean }
> = {
  broken: { label: 'Broken', has: isConfirmedFailure },
  moved: { label: 'Moved', has: (state) => state === 'redirected' },
};

/** Health of a config's links by link id, as the server last said. */
export type HealthById = Readonly<Record<string, LinkHealthEntry>>;

/** The URL a link is checked by: without its `#fragment` (the server never sees it), as a URL reads it. */
function checkedForm(url: string): string | null {
  try {
    const parsed = new URL(url.trim());
    parsed.hash = '';
    return parsed.href;
  } catch {
    return null;
  }
}

/**
 * The health of link `id` as it is in the draft: the server's entry while the link still has the URL
 * that was checked; `undefined` when there is none or the URL was edited since.
 */
export function healthOf(
  id: string,
  link: Link | undefined,
  health: HealthById,
): LinkHealthEntry | undefined {
  const entry = health[id];
  if (entry === undefined || link === undefined) return undefined;
  if (entry.url === link.url) return entry;
  const checked = checkedForm(link.url);
  return checked !== null && checked === checkedForm(entry.url)
    ? entry
    : undefined;
}

/** How many links of the draft each facet holds. */
export function facetCounts(
  links: Readonly<Record<string, Link>>,
  health: HealthById,
): Record<HealthFacet, number> {
  const counts: Record<HealthFacet, number> = { broken: 0, moved: 0 };
  for (const [id, link] of Object.entries(links)) {
    const state = healthOf(id, link, health)?.state;
    if (state === undefined) continue;
    for (const facet of Object.keys(HEALTH_FACETS) as HealthFacet[])
      if (HEALTH_FACETS[facet].has(state)) counts[facet]++;
  }
  return counts;
}

/** Whether link `id` of the draft is in `facet`. */
export function inFacet(
  facet: HealthFacet,
  link: { id: string; link: Link | undefined },
  health: HealthById,
): boolean {
  const state = healthOf(link.id, link.link, health)?.state;
  return state !== undefined && HEALTH_FACETS[facet].has(state);
}

/**
 * The new URL of a link that moved for good: the end of its permanent redirects, with the link's own
 * `#fragment` kept when the new address has none. `null` when the link did not move (or was edited).
 */
export function newUrlOf(
  id: string,
  link: Link | undefined,
  health: HealthById,
): string | null {
  const entry = healthOf(id, link, health);
  if (link === undefined || entry?.state !== 'redirected') return null;
  const finalUrl = entry.finalUrl;
  if (finalUrl === null || finalUrl === entry.url) return null;
  const hash = link.url.indexOf('#');
  if (hash < 0 || finalUrl.includes('#')) return finalUrl;
  return `${finalUrl}${link.url.slice(hash)}`;
}

/** Every link of the draft that moved for good, with its new URL, in config order. */
export function movedLinks(
  links: Readonly<Record<string, Link>>,
  health: HealthById,
): { id: string; url: string }[] {
  const moved: { id: string; url: string }[] = [];
  for (const [id, link] of Object.entries(links)) {
    const url = newUrlOf(id, link, health);
    if (url !== null) moved.push({ id, url });
  }
  return moved;
}

/** The words of each state, as a badge shows them. */
export const STATE_WORDS: Record<LinkState, string> = {
  ok: 'OK',
  redirected: 'Moved',
  broken: 'Broken',
  unreachable: 'Unreachable',
  blocked: 'Blocked',
  unchecked: 'Not checked',
};

/** The tone of a state's badge. */
export function stateTone(state: LinkState): 'ok' | 'warn' | 'bad' | 'none' {
  if (state === 'ok') return 'ok';
  if (isConfirmedFailure(state)) return 'bad';
  if (state === 'redirected' || state === 'blocked') return 'warn';
  return 'none';
}

/** "5 minutes ago", "3 days ago", "just now": how long ago `iso` was, from `now` (ms). */
export function ago(iso: string, now: number): string {
  const ms = now - Date.parse(iso);
  if (!Number.isFinite(ms)) return iso;
  const minutes = Math.floor(ms / 60_000);
  if (minutes < 1) return 'just now';
  const unit = (n: number, word: string) =>
    `${n} ${word}${n === 1 ? '' : 's'} ago`;
  if (minutes < 60) return unit(minutes, 'minute');
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return unit(hours, 'hour');
  return unit(Math.floor(hours / 24), 'day');
}

/** The evidence of `entry` in sentences, most telling first. */
export function evidence(entry: LinkHealthEntry, now: number): string[] {
  const lines: string[] = [];
  lines.push(
    entry.checkedAt === null
      ? 'Not checked yet.'
      : `Last checked ${ago(entry.checkedAt, now)}.`,
  );
  if (entry.state === 'redirected' && entry.finalUrl !== null)
    lines.push(`Moved for good to ${entry.finalUrl}.`);
  else if (
    entry.finalUrl !== null &&
    entry.finalUrl !== entry.url &&
    entry.state === 'ok'
  )
    lines.push(`Redirects for now to ${entry.finalUrl}.`);
  if (entry.reason !== null) lines.push(`Evidence: ${entry.reason}.`);
  else if (entry.status !== null) lines.push(`Answered HTTP ${entry.status}.`);
  if (entry.since !== null && entry.state !== 'unchecked')
    lines.push(`In this state since ${ago(entry.since, now)}.`);
  if (entry.failingSince !== null)
    lines.push(
      `Failing since ${ago(entry.failingSince, now)} (${entry.failures} ${entry.failures === 1 ? 'failure' : 'failures'}), not yet confirmed: a second failure a while later confirms it.`,
    );
  return lines;
}
