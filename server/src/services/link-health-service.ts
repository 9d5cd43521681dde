/**
 * What the link-health routes ask (docs/link-health.md): the health of one config's links, the links in
 * some states across the configs a caller may read (a page at a time), a check on demand, and the one
 * rule that keeps confirmed broken links out of what a site is served ({@link withoutFailedLinks}).
 * Access is the caller's `readable`: a config it may not read is never looked at.
 */
import {
  compareNames,
  isConfirmedFailure,
  slicePauser,
} from '@linkconfig/shared';
import type {
  CheckLinksOutput,
  ConfigLinkHealthOutput,
  LinkHealthEntry,
  LinkHealthRecord,
  LinksHealthItem,
  LinksHealthOutput,
  LinkState,
} from '@linkconfig/shared';
import { configNotFound, DomainError } from '../errors.js';
import { EVENT_LOOP_SLICES } from '../event-loop.js';
import {
  checkedUrl,
  configLinks,
  linksOf,
} from '../link-health/config-links.js';
import type { ConfigLink } from '../link-health/config-links.js';
import type { Permits } from '../permits.js';
import type { LinkChecker } from '../link-health/link-checker.js';
import type { LinkHealthStore } from '../storage/link-health-store.js';
import { uncheckedRecord } from '../storage/link-health-store.js';
import type { ConfigEntryView } from '../versions/config-version.js';
import type { ConfigService } from './config-service.js';
import type { Readable, StateRead } from './version-catalog.js';

/** The states `GET /links/health` lists when none are named: what needs someone's attention. */
const NEEDS_ATTENTION: readonly LinkState[] = [
  'broken',
  'unreachable',
  'redirected',
];

/** Options of {@link LinkHealthService}. */
export interface LinkHealthServiceDeps {
  readonly store: LinkHealthStore;
  readonly configs: ConfigService;
  readonly checker: LinkChecker;
  /** The permits a walk over the configs holds per version read from storage (`scan-permits.ts`). */
  readonly scans?: Permits;
}

/** The health of links, read and asked for. */
export class LinkHealthService {
  readonly #store: LinkHealthStore;
  readonly #configs: ConfigService;
  /** The checker of this process (started only with `LINK_CHECK=on`). */
  readonly checker: LinkChecker;
  readonly #scans: Permits | undefined;

  constructor(deps: LinkHealthServiceDeps) {
    this.#store = deps.store;
    this.#configs = deps.configs;
    this.checker = deps.checker;
    this.#scans = deps.scans;
  }

  /** Each link of `name` with the health of its URL; `null` when the caller may not read it or it is none. */
  async ofConfig(
    name: string,
    state?: StateRead,
    readable?: Readable,
  ): Promise<ConfigLinkHealthOutput | null> {
    const view = await this.#configs.current(name, state, readable);
    if (view === null) return null;
    const links = linksOf(view.stored);
    const records = await this.#recordsOf(links);
    const counts: Partial<Record<LinkState, number>> = {};
    const entries = links.map((link) => {
      const entry = entryOf(link, records);
      counts[entry.state] = (counts[entry.state] ?? 0) + 1;
      return entry;
    });
    return { name, links: entries, counts };
  }

  /**
   * Links whose URL is in one of `states` (default: broken, unreachable, redirected), across the
   * configs `readable` allows, in name order and catalog order, `limit` at a time after `after`. `signal`:
   * the client went away (a walk waiting for a scan permit gives up).
   */
  async across(
    input: {
      readonly state?: readonly LinkState[] | undefined;
      readonly limit: number;
      readonly after?: string | undefined;
    },
    from: {
      readonly state?: StateRead | undefined;
      readonly readable?: Readable | undefined;
      readonly signal?: AbortSignal | undefined;
    } = {},
  ): Promise<LinksHealthOutput> {
    const states = input.state ?? NEEDS_ATTENTION;
    const records = new Map(
      (await this.#store.withStates(states)).map((r) => [r.url, r]),
    );
    const links: LinksHealthItem[] = [];
    const [afterName, afterId] = cursorOf(input.after);
    if (records.size === 0) return { links, next: null };
    const options = { ...from, scans: this.#scans };
    for await (const config of configLinks(this.#configs, options)) {
      if (afterName !== undefined && compareNames(config.name, afterName) < 0)
        continue;
      // In the config of the cursor, the links up to its link were on earlier pages.
      let skipping = config.name === afterName && afterId !== undefined;
      for (const link of config.links) {
        if (skipping) {
          skipping = link.id !== afterId;
          continue;
        }
        const record = link.url === null ? undefined : records.get(link.url);
        if (record === undefined) continue;
        if (links.length === input.limit) {
          const last = links.at(-1);
          return {
            links,
            next: last === undefined ? null : cursor(last.config, last.id),
          };
        }
        links.push({ config: config.name, ...entryOf(link, records) });
      }
    }
    return { links, next: null };
  }

  /** Makes the URLs of `name` due now; refused while link checking is off. */
  async checkNow(name: string, state?: StateRead): Promise<CheckLinksOutput> {
    if (!this.checker.started) {
      throw new DomainError(
        'disabled',
        'link checking is off on this server (LINK_CHECK=on starts it; linkconfig check runs one check)',
      );
    }
    const view = await this.#configs.current(name, state);
    if (view === null) throw configNotFound(name);
    const urls = uniqueUrls(linksOf(view.stored));
    return { urls: await this.checker.checkNow(urls) };
  }

  /** The URLs among `urls` that are confirmed broken or unreachable. */
  async failedUrls(urls: readonly string[]): Promise<Set<string>> {
    const records = await this.#store.get(urls);
    return new Set(
      records.filter((r) => isConfirmedFailure(r.state)).map((r) => r.url),
    );
  }

  /** The entry of `view` without its confirmed broken and unreachable links (`?links=healthy`). */
  async healthyEntry(entry: ConfigEntryView): Promise<ConfigEntryView> {
    return withoutFailedLinks(
      entry,
      await this.failedUrls(checkedUrlsOf(entry.config)),
    );
  }

  async #recordsOf(
    links: readonly ConfigLink[],
  ): Promise<Map<string, LinkHealthRecord>> {
    const urls = uniqueUrls(links);
    const pauseIfDue = slicePauser(EVENT_LOOP_SLICES);
    const records = new Map<string, LinkHealthRecord>();
    // In batches, so a config of many thousand links is read in steps that share the event loop.
    for (let i = 0; i < urls.length; i += 1000) {
      for (const record of await this.#store.get(urls.slice(i, i + 1000)))
        records.set(record.url, record);
      const paused = pauseIfDue();
      if (paused !== undefined) await paused;
    }
    return records;
  }
}

/**
 * The one rule of "keep broken links out": `entry` without the links whose URL is in `failed` (confirmed
 * broken or unreachable). The draft keeps them, for repair; what a site is served does not.
 */
export function withoutFailedLinks<E extends { readonly config: Linked }>(
  entry: E,
  failed: ReadonlySet<string>,
): E {
  if (failed.size === 0) return entry;
  const allLinks = Object.fromEntries(
    Object.entries(entry.config.allLinks).filter(([, link]) => {
      const url = checkedUrl(link.url);
      return url === null || !failed.has(url);
    }),
  );
  return { ...entry, config: { ...entry.config, allLinks } };
}

/** A config as far as its links' URLs go. */
interface Linked {
  readonly allLinks: Readonly<Record<string, { readonly url?: unknown }>>;
}

/** The URLs the checker knows the links of `config` by (the keys of {@link withoutFailedLinks}). */
export function checkedUrlsOf(config: Linked): string[] {
  return Object.values(config.allLinks).flatMap((link) => {
    const url = checkedUrl(link.url);
    return url === null ? [] : [url];
  });
}

function uniqueUrls(links: readonly ConfigLink[]): string[] {
  return [...new Set(links.flatMap((l) => (l.url === null ? [] : [l.url])))];
}

/** A link with its URL's health (a URL not tracked yet, or not checked at all, is `unchecked`). */
function entryOf(
  link: ConfigLink,
  records: ReadonlyMap<string, LinkHealthRecord>,
): LinkHealthEntry {
  const record =
    (link.url === null ? undefined : records.get(link.url)) ??
    uncheckedRecord(link.url ?? '', 0);
  const { nextAt: _due, ...health } = record;
  return {
    id: link.id,
    ...health,
    ...(link.url === null ? { reason: 'not an http(s) URL' } : {}),
  };
}

/** The `next` of a page: the config and link id of its last link. */
const cursor = (config: string, id: string): string =>
  JSON.stringify([config, id]);

function cursorOf(after: string | undefined): [string?, string?] {
  if (after === undefined) return [];
  try {
    const parsed: unknown = JSON.parse(after);
    if (
      Array.isArray(parsed) &&
      parsed.length === 2 &&
      typeof parsed[0] === 'string' &&
      typeof parsed[1] === 'string'
    )
      return [parsed[0], parsed[1]];
  } catch {
    // Not a cursor of ours: refused below.
  }
  throw new DomainError('invalid_request', 'after is not the next of a page');
}
