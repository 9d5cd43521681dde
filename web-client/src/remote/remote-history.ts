import type {
  DiffOutput,
  HistoryOutput,
  RestoreOutput,
  RevisionOutput,
} from '@linkconfig/shared';
import { callJson } from './http-call.js';
import type { HttpCaller, CallSpec } from './http-call.js';

/** Options of {@link HistoryStore.history}: a page of `limit` revisions below `before`. */
export interface HistoryPageOptions {
  limit?: number;
  before?: number;
}

/** Options of {@link HistoryStore.restore}. */
export interface RestoreOptions {
  /** Only these links of the revision, into the current config (a link the revision lacks is removed). */
  links?: readonly string[];
  /** The ETag the restore is based on; a different stored version rejects with a `conflict`. */
  ifMatch?: string;
}

/** The server's history of configs (docs/http-api.md, History), as a store of this package reads it. */
export interface HistoryStore {
  /** Revisions of `name`, newest first, each with what it changed; `null` when the name never existed. */
  history(
    name: string,
    options?: HistoryPageOptions,
  ): Promise<HistoryOutput | null>;
  /** `name` as revision `rev` stored it; `null` for an unknown revision or a delete. */
  loadRevision(name: string, rev: number): Promise<RevisionOutput | null>;
  /** What changed from revision `from` to `to` (default: the newest). */
  diff(name: string, from: number, to?: number): Promise<DiffOutput>;
  /** Stores revision `rev` again (undeleting), or only some of its links; resolves with the new revision. */
  restore(
    name: string,
    rev: number,
    options?: RestoreOptions,
  ): Promise<RestoreOutput>;
  /** Names deleted and still restorable. */
  listDeleted(): Promise<string[]>;
}

/** The history calls of a remote store, over its HTTP caller. */
export function createRemoteHistory(http: HttpCaller): HistoryStore {
  const path = (name: string, rest: string) =>
    `/configs/${encodeURIComponent(name)}/${rest}`;
  const read = <T>(spec: CallSpec): Promise<T | null> =>
    callJson<T>(http, spec);
  const query = (params: Record<string, number | undefined>) => {
    const entries = Object.entries(params).filter(
      (entry): entry is [string, number] => entry[1] !== undefined,
    );
    return entries.length === 0
      ? ''
      : `?${new URLSearchParams(entries.map(([k, v]) => [k, String(v)])).toString()}`;
  };
  return {
    history: (name, options = {}) =>
      read<HistoryOutput>({
        op: 'history',
        configName: name,
        method: 'GET',
        path: path(name, `history${query({ ...options })}`),
        accept: [404],
      }),
    loadRevision: (name, rev) =>
      read<RevisionOutput>({
        op: 'loadRevision',
        configName: name,
        method: 'GET',
        path: path(name, `revisions/${rev}`),
        accept: [404],
      }),
    diff: async (name, from, to) =>
      (await read<DiffOutput>({
        op: 'diff',
        configName: name,
        method: 'GET',
        path: path(name, `diff${query({ from, to })}`),
      })) as DiffOutput,
    restore: async (name, rev, options = {}) =>
      (await read<RestoreOutput>({
        op: 'restore',
        configName: name,
        method: 'POST',
        path: path(name, 'restore'),
        body: JSON.stringify({
          rev,
          ...(options.links === undefined ? {} : { links: options.links }),
        }),
        headers:
          options.ifMatch === undefined
            ? undefined
            : { 'If-Match': options.ifMatch },
      })) as RestoreOutput,
    listDeleted: async () =>
      (await read<string[]>({
        op: 'listDeleted',
        configName: '',
        method: 'GET',
        path: '/configs?deleted=true',
      })) ?? [],
  };
}

/** Whether `store` reads the server's history (a remote store of this package does). */
export function hasHistory<T extends object>(
  store: T,
): store is T & HistoryStore {
  const candidate = store as Partial<HistoryStore>;
  return (
    typeof candidate.history === 'function' &&
    typeof candidate.loadRevision === 'function' &&
    typeof candidate.restore === 'function'
  );
}
