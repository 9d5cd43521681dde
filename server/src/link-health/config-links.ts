/**
 * Which URL each link of a config is checked by, and a walk over the configs' links for the checker and
 * the cross-config reads. Only `http:` and `https:` URLs are checked; a URL is checked without its
 * `#fragment` (never sent to the server), so `…/page#a` and `…/page#b` are one check.
 */
import { isPlainObject, slicePauser } from '@linkconfig/shared';
import { EVENT_LOOP_SLICES } from '../event-loop.js';
import type { Permits } from '../permits.js';
import type { ConfigService } from '../services/config-service.js';
import { scanTurns } from '../services/scan-permits.js';
import type { ScanTurns } from '../services/scan-permits.js';
import type { Readable } from '../services/version-catalog.js';
import type { StateRead } from '../services/version-catalog.js';

/** One link of a config and the URL it is checked by (`null`: not checked). */
export interface ConfigLink {
  readonly id: string;
  readonly url: string | null;
}

/** The URL a link's `url` is checked by, or `null` (not http(s), or not a URL). */
export function checkedUrl(raw: unknown): string | null {
  if (typeof raw !== 'string') return null;
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  url.hash = '';
  return url.href;
}

/** The links of a stored config, in catalog order, with the URL each is checked by. */
export function linksOf(stored: Record<string, unknown>): ConfigLink[] {
  const all = stored['allLinks'];
  if (!isPlainObject(all)) return [];
  return Object.entries(all).map(([id, link]) => ({
    id,
    url: isPlainObject(link) ? checkedUrl(link['url']) : null,
  }));
}

/**
 * Every config (of those `readable`) in name order with its links, reading versions as a search does
 * (cached ones without a read, others read, under a scan permit when `scans` is given, and offered to the
 * cache) and pausing between configs every slice, so a walk over thousands of configs shares the event
 * loop. `signal`: the client went away (a walk waiting for a permit gives up).
 */
export async function* configLinks(
  configs: ConfigService,
  options: {
    readonly state?: StateRead | undefined;
    readonly readable?: Readable | undefined;
    readonly scans?: Permits | undefined;
    readonly signal?: AbortSignal | undefined;
  } = {},
): AsyncGenerator<{ readonly name: string; readonly links: ConfigLink[] }> {
  const pauseIfDue = slicePauser(EVENT_LOOP_SLICES);
  const turn = scanTurns(options.scans, options.signal);
  for (const { name, version } of await configs.versions(
    options.state,
    options.readable,
  )) {
    const paused = pauseIfDue();
    if (paused !== undefined) await paused;
    const cached = configs.cachedAt(name, version);
    const links =
      cached === undefined
        ? await readLinks(configs, name, turn)
        : cached && linksOf(cached.stored);
    if (links === null) continue;
    yield { name, links };
  }
}

/** The links of `name` read from storage (`null`: gone), the version offered to the cache. */
async function readLinks(
  configs: ConfigService,
  name: string,
  turn: ScanTurns,
): Promise<ConfigLink[] | null> {
  // The permit covers the version's memory (its text and parsed config) until the cache took or left it.
  const release = await turn();
  try {
    const current = await configs.readVersion(name);
    if (current === null) return null;
    const links = linksOf(current.stored);
    configs.offer(current);
    return links;
  } finally {
    release?.();
  }
}
