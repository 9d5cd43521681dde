/**
 * @module @linkconfig/web-client
 * Config stores for browser apps (docs/client-stores.md): IndexedDB, REST and an offline-first hybrid
 * of both, plus a typed tRPC client for the server's procedures.
 */
export { sortNames } from './config-store.js';
export type {
  ConfigEntry,
  ConfigStore,
  LinkConfig,
  RemoteOperation,
} from './config-store.js';
export { createIndexedDBStore } from './indexeddb/indexeddb-store.js';
export type {
  IndexedDBConfigStore,
  IndexedDBStoreOptions,
} from './indexeddb/indexeddb-store.js';
export { LocalStoreError } from './indexeddb/local-store-error.js';
export type { LocalStoreErrorCode } from './indexeddb/local-store-error.js';
export type { DeadLetter, OutboxEntry } from './indexeddb/outbox.js';
export type { NameSync } from './indexeddb/outbox-types.js';
export { createRemoteStore, isVersionedRemote } from './remote/remote-store.js';
export type {
  RemoteConfigStore,
  RemoteStoreOptions,
  VersionedLoad,
  WriteCondition,
} from './remote/remote-store.js';
export { hasHistory } from './remote/remote-history.js';
export type {
  HistoryPageOptions,
  HistoryStore,
  RestoreOptions,
} from './remote/remote-history.js';
export { HistoryUnavailableError } from './hybrid/hybrid-history.js';
export { createLinkHealthClient } from './remote/link-health-client.js';
export type {
  LinkHealthClient,
  LinksAcrossOptions,
} from './remote/link-health-client.js';
export { createPublishClient } from './remote/publish-client.js';
export type { PublishClient, PublishOptions } from './remote/publish-client.js';
export { createHttpCaller } from './remote/http-call.js';
export { ACCESS, Connection } from './remote/connection.js';
export type { Access, CallAccess, CallKind } from './remote/connection.js';
export type {
  CallResult,
  CallSpec,
  HttpCaller,
  HttpCallerOptions,
  TokenSource,
} from './remote/http-call.js';
export { FEED_STATES } from './remote/change-feed.js';
export type {
  ChangeFeed,
  ChangeFeedOptions,
  FeedState,
} from './remote/change-feed.js';
export { ChangeEventSchema } from './remote/change-event.js';
export type { ChangeEvent } from './remote/change-event.js';
export { RemoteStoreError } from './remote/remote-store-error.js';
export type { RemoteFailureKind } from './remote/remote-store-error.js';
export { createMemoryStore } from './memory/memory-store.js';
export type { MemoryStoreOptions } from './memory/memory-store.js';
export { createHybridStore } from './hybrid/hybrid-store.js';
export { EditBases } from './hybrid/edits.js';
export type { EditStore, KeptDraft } from './hybrid/edits.js';
export { Reachability } from './reachability.js';
export type { HybridStore, HybridStoreOptions } from './hybrid/hybrid-store.js';
export type { HybridStatus, LiveState } from './hybrid/hybrid-status.js';
export type {
  Conflict,
  ConflictChoice,
  ConflictHandler,
} from './hybrid/conflicts.js';
export type { MergeReport } from './hybrid/auto-merge.js';
export type { BackoffOptions } from './backoff.js';
export { FlushError } from './hybrid/flush-error.js';
export { createLinkConfigClient } from './trpc/link-config-client.js';
export type {
  AppRouter,
  LinkConfigClient,
  LinkConfigClientOptions,
} from './trpc/link-config-client.js';
/** The error a typed client call rejects with (`error.data?.etag`, `error.data?.issues`). */
export { TRPCClientError } from '@trpc/client';
