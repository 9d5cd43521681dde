import type { LinkEvent } from '@linkconfig/shared';
import type { Outbound } from '../outbound/index.js';
import type { PublishStore } from '../storage/publish-store.js';

/** Where and how a publish purges shared caches (`PURGE_URLS`, `PURGE_METHOD`). */
export interface PurgeOptions {
  readonly urls: readonly string[];
  readonly method: 'PURGE' | 'BAN';
  readonly outbound: Outbound;
  /** Told of each purge that failed (it is not retried: the cache's own lifetimes bound the staleness). */
  readonly onError?: (url: string, error: unknown) => void;
}

/**
 * What a publish or unpublish sends each cache of `PURGE_URLS`, through the outbound module: `PURGE` of
 * the config's published URL, or `BAN`, each naming in `Surrogate-Key` the tags of the answers that
 * changed (`published`: every list and search; `published:<name>`: the config's own answers), which the
 * VCL in docs/publishing.md bans by.
 */
export function purgeOnPublish(
  options: PurgeOptions,
): (event: { readonly name: string }) => void {
  return (event) => {
    const tags = `published published:${encodeURIComponent(event.name)}`;
    for (const base of options.urls) {
      const url = new URL(
        `published/configs/${encodeURIComponent(event.name)}`,
        base.endsWith('/') ? base : `${base}/`,
      );
      options.outbound
        .send({
          url,
          method: options.method,
          headers: { 'Surrogate-Key': tags },
          purpose: 'purge',
          timeoutMs: 5_000,
        })
        .catch((error: unknown) => options.onError?.(url.href, error));
    }
  };
}

/**
 * What a link's change of state (`link-broken`, `link-recovered`) purges: the published answers of each
 * config holding the URL whose publish record hides broken links, since what they serve changed.
 */
export function purgeOnLinkEvent(
  publish: Pick<PublishStore, 'get'>,
  purge: (event: { readonly name: string }) => void,
): (event: LinkEvent) => Promise<void> {
  return async (event) => {
    for (const name of new Set(event.configs)) {
      const record = await publish.get(name);
      if (record?.hideBroken === true) purge({ name });
    }
  };
}
