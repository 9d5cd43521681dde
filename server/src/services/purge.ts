import type { LinkEvent } from '@linkconfig/shared';
import type { Outbound } from '../outbound/index.js';
import type { PublishStore } from '../storage/publish-store.js';

/**
 * The tags (`Surrogate-Key` / `Cache-Tag`) of `/published` answers, which a publish purges by. Every
 * answer carries {@link PUBLISHED_TAG} (an operator may ban them all); one config's answers also carry
 * its own {@link configTag}; answers over every published config (lists, searches) carry
 * {@link LISTS_TAG}. A publish of one name purges its own tag and the lists' one, and nothing else.
 */
export const PUBLISHED_TAG = 'published';

/** The tag of answers computed over every published config (`GET /published/configs`, searches). */
export const LISTS_TAG = 'published-lists';

/**
 * The tag of one config's published answers: the name percent-encoded with every character but
 * letters, digits, `-` and `_` escaped, so a tag holds no character a cache's pattern would read
 * (`docs/varnish/linkconfig.vcl` bans by regular expression).
 */
export function configTag(name: string): string {
  const safe = encodeURIComponent(name).replace(
    /[!'()*.~]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `${PUBLISHED_TAG}:${safe}`;
}

/** The tags of an answer, space-separated: of one config (`name`), or over every config. */
export function answerTags(name: string | undefined): string {
  return name === undefined
    ? `${PUBLISHED_TAG} ${LISTS_TAG}`
    : `${PUBLISHED_TAG} ${configTag(name)}`;
}

/** What a publish or unpublish of `name` purges, space-separated. */
export function purgeTags(name: string): string {
  return `${LISTS_TAG} ${configTag(name)}`;
}

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
 * changed ({@link purgeTags}), which the VCL of docs/varnish/linkconfig.vcl bans by.
 */
export function purgeOnPublish(
  options: PurgeOptions,
): (event: { readonly name: string }) => void {
  return (event) => {
    const tags = purgeTags(event.name);
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
