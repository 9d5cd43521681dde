/**
 * The server's link health (docs/link-health.md), read and asked for over an {@link HttpCaller} (the
 * remote store's: token, time limit, failures as `RemoteStoreError`s). Kept apart from the
 * `ConfigStore` contract: link health lives on the server only, so no local store has it.
 */
import type {
  CheckLinksOutput,
  ConfigLinkHealthOutput,
  LinkState,
  LinksHealthOutput,
} from '@linkconfig/shared';
import { callJson } from './http-call.js';
import type { CallSpec, HttpCaller } from './http-call.js';

/** Options of {@link LinkHealthClient.across}: which states, a page at a time. */
export interface LinksAcrossOptions {
  states?: readonly LinkState[];
  limit?: number;
  /** The `next` of the page before. */
  after?: string;
}

/** What the server knows of the links' URLs, and checks on demand. */
export interface LinkHealthClient {
  /** Each link of `name` with the health of its URL; `null` when no config has that name. */
  ofConfig(name: string): Promise<ConfigLinkHealthOutput | null>;
  /** Links in some states across the configs the caller may read (default: those that need attention). */
  across(options?: LinksAcrossOptions): Promise<LinksHealthOutput>;
  /**
   * Makes the distinct URLs of `name` due now (a write key). Rejects with a `RemoteStoreError` of
   * status 409 while the server's checker is off, 403 for a key that may only read.
   */
  checkNow(name: string): Promise<CheckLinksOutput>;
}

/** The link health calls over `http`. */
export function createLinkHealthClient(http: HttpCaller): LinkHealthClient {
  const path = (name: string, rest: string) =>
    `/configs/${encodeURIComponent(name)}/links/${rest}`;
  const json = <T>(spec: CallSpec): Promise<T | null> =>
    callJson<T>(http, spec);
  return {
    ofConfig: (name) =>
      json<ConfigLinkHealthOutput>({
        op: 'linkHealth',
        configName: name,
        method: 'GET',
        path: path(name, 'health'),
        accept: [404],
      }),
    across: async (options = {}) => {
      const params = new URLSearchParams();
      if (options.states !== undefined && options.states.length > 0)
        params.set('state', options.states.join(','));
      if (options.limit !== undefined)
        params.set('limit', String(options.limit));
      if (options.after !== undefined) params.set('after', options.after);
      const query = params.toString();
      return (await json<LinksHealthOutput>({
        op: 'linkHealth',
        configName: '',
        method: 'GET',
        path: `/links/health${query === '' ? '' : `?${query}`}`,
      })) as LinksHealthOutput;
    },
    checkNow: async (name) =>
      (await json<CheckLinksOutput>({
        op: 'checkLinks',
        configName: name,
        method: 'POST',
        path: path(name, 'check'),
        // Asking for a check writes no config: a refusal says nothing of the key's config access.
        access: 'none',
      })) as CheckLinksOutput,
  };
}
