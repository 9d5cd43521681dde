import type { ConfigEntry, LinkConfig, MergePatch } from '@linkconfig/shared';
import type { ConfigStore } from '../config-store.js';
import { openChangeFeed } from './change-feed.js';
import type { ChangeFeed, ChangeFeedOptions } from './change-feed.js';
import { answerJson, createHttpCaller } from './http-call.js';
import type { CallSpec, HttpCallerOptions } from './http-call.js';
import { RemoteStoreError } from './remote-store-error.js';
import { createRemoteHistory } from './remote-history.js';
import type { HistoryStore } from './remote-history.js';
import { createPublishClient } from './publish-client.js';
import type { PublishClient } from './publish-client.js';

/** Options of {@link createRemoteStore}: where the server is and how to talk to it. */
export type RemoteStoreOptions = HttpCallerOptions;

/**
 * What a conditional write requires of the server's current version: `ifMatch` an ETag (or `*`: any
 * existing version), or `ifNoneMatch: '*'` (the config must not exist yet).
 */
export interface WriteCondition {
  ifMatch?: string;
  ifNoneMatch?: '*';
}

/** The answer of {@link RemoteConfigStore.loadVersioned}. */
export type VersionedLoad =
  | { status: 'found'; entry: ConfigEntry; etag: string | null }
  | { status: 'missing' }
  | { status: 'not-modified'; etag: string };

/** A ConfigStore over REST that also speaks the server's versions and change feed. */
export interface RemoteConfigStore extends ConfigStore {
  /**
   * The entry with its ETag. With `ifNoneMatch` (an ETag the caller holds), answers `not-modified` when
   * the server still holds that version, without sending the config again.
   */
  loadVersioned(
    name: string,
    options?: { ifNoneMatch?: string },
  ): Promise<VersionedLoad>;
  /**
   * Saves under a precondition; resolves with the new ETag (`undefined` when the server sent none).
   * Rejects with a `RemoteStoreError` of kind `conflict` (status 412, `etag` = the server's) when the
   * precondition fails.
   */
  saveVersioned(
    name: string,
    config: LinkConfig,
    condition?: WriteCondition,
  ): Promise<{ etag: string | undefined }>;
  /**
   * Changes part of a stored config with a JSON Merge Patch (`PATCH`, RFC 7396): members replace,
   * `null` removes, objects merge, arrays are replaced whole. With `ifMatch` only over that version (a
   * conflict rejects as for {@link saveVersioned}); without it, over the current one. A missing name
   * rejects with status 404.
   */
  patch(
    name: string,
    patch: MergePatch,
    condition?: Pick<WriteCondition, 'ifMatch'>,
  ): Promise<{ etag: string | undefined }>;
  /** Removes under a precondition; a conflict rejects as for {@link saveVersioned}. */
  removeVersioned(name: string, condition?: WriteCondition): Promise<void>;
  /** Follows the server's change feed until the returned feed is closed. */
  watchChanges(options: ChangeFeedOptions): ChangeFeed;
}

/**
 * Creates a ConfigStore backed by the REST API (docs/client-stores.md), with the server's history
 * (`remote-history.ts`) and publishing (`publish-client.ts`). Works in browsers and Node 20.
 *
 * @example
 * const store = createRemoteStore({ baseUrl: 'http://localhost:3000', token: () => settings.token });
 * console.log(await store.list());
 */
export function createRemoteStore(
  options: RemoteStoreOptions,
): RemoteConfigStore & HistoryStore & PublishClient {
  const http = createHttpCaller(options);

  const parse = (text: string, spec: CallSpec): unknown =>
    answerJson(spec, { status: 200, text });

  const configPath = (name: string) => `/configs/${encodeURIComponent(name)}`;

  const loadVersioned = async (
    name: string,
    loadOptions: { ifNoneMatch?: string } = {},
  ): Promise<VersionedLoad> => {
    const spec: CallSpec = {
      op: 'load',
      configName: name,
      method: 'GET',
      path: configPath(name),
      accept: [304, 404],
      headers:
        loadOptions.ifNoneMatch === undefined
          ? undefined
          : { 'If-None-Match': loadOptions.ifNoneMatch },
    };
    const response = await http.call(spec);
    if (response.status === 404) return { status: 'missing' };
    if (response.status === 304 && loadOptions.ifNoneMatch !== undefined)
      return { status: 'not-modified', etag: loadOptions.ifNoneMatch };
    return {
      status: 'found',
      entry: parse(response.text, spec) as ConfigEntry,
      etag: response.headers.get('ETag'),
    };
  };

  const saveVersioned = async (
    name: string,
    config: LinkConfig,
    condition: WriteCondition = {},
  ) => {
    const response = await http.call({
      op: 'save',
      configName: name,
      method: 'PUT',
      path: configPath(name),
      body: JSON.stringify(config),
      headers: conditionHeaders(condition),
    });
    return { etag: response.headers.get('ETag') ?? undefined };
  };

  const patch = async (
    name: string,
    mergePatch: MergePatch,
    condition: Pick<WriteCondition, 'ifMatch'> = {},
  ) => {
    const response = await http.call({
      op: 'save',
      configName: name,
      method: 'PATCH',
      path: configPath(name),
      body: JSON.stringify(mergePatch),
      contentType: 'application/merge-patch+json',
      headers: conditionHeaders(condition),
    });
    return { etag: response.headers.get('ETag') ?? undefined };
  };

  const removeVersioned = async (
    name: string,
    condition: WriteCondition = {},
  ) => {
    // Without a precondition a 404 means it is already gone: done. With one, the server answers 412.
    await http.call({
      op: 'remove',
      configName: name,
      method: 'DELETE',
      path: configPath(name),
      headers: conditionHeaders(condition),
      accept: [404],
    });
  };

  const loadEntry = async (name: string) => {
    const result = await loadVersioned(name);
    return result.status === 'found' ? result.entry : null;
  };

  return {
    ...createRemoteHistory(http),
    ...createPublishClient(http),
    save: async (name, config) => void (await saveVersioned(name, config)),
    loadEntry,
    load: async (name) => (await loadEntry(name))?.config ?? null,
    async list() {
      const spec = {
        op: 'list',
        configName: '',
        method: 'GET',
        path: '/configs',
      };
      const body = parse((await http.call(spec)).text, spec);
      if (!Array.isArray(body) || !body.every((n) => typeof n === 'string')) {
        throw new RemoteStoreError({
          ...spec,
          kind: 'http',
          status: 200,
          message: 'GET /configs did not return a list of names',
        });
      }
      return body;
    },
    remove: (name) => removeVersioned(name),
    loadVersioned,
    saveVersioned,
    patch,
    removeVersioned,
    watchChanges: (feedOptions) => openChangeFeed(http, feedOptions),
  };
}

/** Whether `store` speaks versions and the change feed (a store from {@link createRemoteStore} does). */
export function isVersionedRemote(
  store: ConfigStore,
): store is RemoteConfigStore {
  const candidate = store as Partial<RemoteConfigStore>;
  return (
    typeof candidate.loadVersioned === 'function' &&
    typeof candidate.saveVersioned === 'function' &&
    typeof candidate.removeVersioned === 'function' &&
    typeof candidate.watchChanges === 'function'
  );
}

/** `If-Match` / `If-None-Match` for a condition; ETags are sent exactly as the server gave them. */
function conditionHeaders(
  condition: WriteCondition,
): Record<string, string> | undefined {
  const headers: Record<string, string> = {};
  if (condition.ifMatch !== undefined) headers['If-Match'] = condition.ifMatch;
  if (condition.ifNoneMatch !== undefined)
    headers['If-None-Match'] = condition.ifNoneMatch;
  return Object.keys(headers).length > 0 ? headers : undefined;
}
