/**
 * How one outbox entry reaches the server. With a remote that speaks versions, a save carries its base
 * version as a precondition (`If-Match`, or `If-None-Match: *` for a name the server should not have),
 * so a write based on an old version is refused (412) instead of overwriting someone else's. With a
 * plain ConfigStore remote, writes are sent as they are, last writer wins.
 */
import {
  createMergePatch,
  sameKeyOrder,
  sameValue,
  sanitizeConfigLinks,
} from '@linkconfig/shared';
import type { LinkConfig, MergePatch } from '@linkconfig/shared';
import type { ConfigStore } from '../config-store.js';
import type { OutboxEntry, RemoteSide } from '../indexeddb/outbox.js';
import { RemoteStoreError } from '../remote/remote-store-error.js';
import { isVersionedRemote } from '../remote/remote-store.js';
import type { WriteCondition } from '../remote/remote-store.js';

/** Sends outbox entries and reads the server's side of a conflict. */
export interface Delivery {
  /** Sends `entry`; resolves with the server's new ETag (`undefined` when unknown). */
  send(entry: OutboxEntry): Promise<{ etag: string | undefined }>;
  /** The server's current version of `name`, for a conflict. */
  current(name: string): Promise<RemoteSide>;
}

/** Creates the delivery for `remote`. */
export function createDelivery(remote: ConfigStore): Delivery {
  if (!isVersionedRemote(remote)) {
    return {
      async send(entry) {
        if (entry.op === 'save')
          await remote.save(entry.name, entry.config ?? { allLinks: {} });
        else await remote.remove(entry.name);
        return { etag: undefined };
      },
      async current(name) {
        return { entry: await remote.loadEntry(name), etag: null };
      },
    };
  }
  return {
    async send(entry) {
      const condition = conditionOf(entry);
      if (entry.op === 'save') {
        const config = entry.config ?? { allLinks: {} };
        const patch = patchOf(entry, config);
        if (
          patch !== undefined &&
          condition?.ifMatch !== undefined &&
          typeof remote.patch === 'function'
        ) {
          return remote.patch(entry.name, patch, {
            ifMatch: condition.ifMatch,
          });
        }
        return remote.saveVersioned(entry.name, config, condition);
      }
      if (entry.baseEtag === null) {
        // Removing a name the server should not have: DELETE has no "only if absent", so look. Absent:
        // done. Present: someone else created it, and deleting that unseen would lose their update.
        const answer = await remote.loadVersioned(entry.name);
        if (answer.status === 'found') throw unseenVersion(entry, answer.etag);
        return { etag: undefined };
      }
      await remote.removeVersioned(entry.name, condition);
      return { etag: undefined };
    },
    async current(name) {
      const answer = await remote.loadVersioned(name);
      return answer.status === 'found'
        ? { entry: answer.entry, etag: answer.etag }
        : { entry: null, etag: null };
    },
  };
}

/** Configs smaller than this are always sent whole: a patch would save next to nothing. */
export const PATCH_MIN_BYTES = 2048;

/**
 * The merge patch to send instead of the whole config: only when the server's version the write is
 * based on is known (by ETag and content), the difference can be said as a merge patch, and it is at
 * most a quarter of the config. The server applies it over exactly that version (`If-Match`). A merge
 * patch cannot say an order (new members come last): when the links' order of the write is not what
 * the patch would give (a deleted link put back in its place, links reordered), the config goes whole.
 */
export function patchOf(
  entry: OutboxEntry,
  config: LinkConfig,
): MergePatch | undefined {
  if (typeof entry.baseEtag !== 'string' || !entry.base) return undefined;
  const whole = JSON.stringify(config).length;
  if (whole < PATCH_MIN_BYTES) return undefined;
  const patch = createMergePatch(entry.base, config);
  if (patch === undefined) return undefined;
  // A patch cannot say an order: createMergePatch gives none when the links' order changed.
  return JSON.stringify(patch).length * 4 > whole ? undefined : patch;
}

/** The precondition of an entry: none when its base is unknown. */
function conditionOf(entry: OutboxEntry): WriteCondition | undefined {
  if (entry.baseEtag === undefined) return undefined;
  return entry.baseEtag === null
    ? { ifNoneMatch: '*' }
    : { ifMatch: entry.baseEtag };
}

/** The conflict of a remove that found a version it never saw (what a 412 would have said). */
function unseenVersion(
  entry: OutboxEntry,
  etag: string | null,
): RemoteStoreError {
  return new RemoteStoreError({
    op: 'remove',
    configName: entry.name,
    kind: 'conflict',
    status: 412,
    message: `"${entry.name}" exists on the server in a version this store never saw; not removed`,
    etag,
  });
}

/**
 * Whether the server's side already is what `entry` writes (H8, H19): absent for a remove; for a save,
 * the same config as the server answers it. The server answers a stored config with its links
 * sanitized (docs/expression-reference.md §15), so both sides are compared in that form, through the
 * one sanitizer the server uses: a write holding a `javascript:` URL is recognised as delivered, whether
 * or not sanitizing changed anything. Sanitizing only replaces script-capable URLs by `about:blank`, so
 * the one difference this cannot see is one no answer of the server shows either (two such URLs, or
 * such a URL and a literal `about:blank`, at the same place). The links' order counts too (it is the
 * order of a menu). The ETag cannot decide it instead: it
 * names a version (number and time), not content, so it is unknown when the answer was lost.
 */
export function alreadyApplied(
  entry: OutboxEntry,
  remote: RemoteSide,
): boolean {
  if (entry.op === 'remove') return remote.entry === null;
  return (
    remote.entry !== null &&
    entry.config !== undefined &&
    sameValue(
      sanitizeConfigLinks(remote.entry.config),
      sanitizeConfigLinks(entry.config),
    ) &&
    // The order of links is the order of a menu: a write that only moved links is not applied yet.
    sameKeyOrder(remote.entry.config.allLinks, entry.config.allLinks)
  );
}
