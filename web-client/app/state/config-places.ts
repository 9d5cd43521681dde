/**
 * Where each config is kept — in this browser, on the server, or both — and the marker the list shows
 * for it. Pure functions over the names each place reported.
 */
import { sortNames } from '@linkconfig/web-client';
import type { HybridStatus } from '@linkconfig/web-client';
import { pendingWrites } from './sync-status.js';
import type { PendingWrites } from './sync-status.js';
import type { ConfigListItem } from './state.js';

/** The names each place reported. */
export interface PlaceNames {
  /** The hybrid store's list: this browser's names and, when it answered, the server's. */
  listed: readonly string[];
  /** The names kept in this browser. */
  local: readonly string[];
  /** The server's latest list (from now or an earlier visit); null when it never answered. */
  server: readonly string[] | null;
  /** Writes waiting to be sent, by name. */
  pending: PendingWrites;
}

/**
 * The list of configs: every listed name plus the server's last known names (so they show while the
 * server is out of reach), without names whose deletion waits to be sent, sorted like the server.
 */
export function configPlaces(names: PlaceNames): ConfigListItem[] {
  const { server, pending } = names;
  const onServer = server === null ? null : new Set(server);
  const inBrowser = new Set(names.local);
  const all = new Set([...names.listed, ...(server ?? [])]);
  for (const [name, op] of pending) if (op === 'remove') all.delete(name);
  return sortNames(all).map((name) => ({
    name,
    local: inBrowser.has(name),
    server: onServer === null ? null : onServer.has(name),
    pending: pending.get(name) === 'save',
  }));
}

/** A marker's words and how much it matters. */
export interface PlaceMarker {
  text: string;
  tone: 'info' | 'warn' | 'bad';
}

/** The marker of a config, or null when it is simply in both places. */
export function placeMarker(
  item: ConfigListItem,
  serverReachable: boolean,
): PlaceMarker | null {
  if (!item.local && item.server)
    return serverReachable
      ? { text: 'on the server only', tone: 'info' }
      : { text: 'not available offline', tone: 'bad' };
  if (item.local && item.server === false)
    return item.pending
      ? { text: 'not yet on the server', tone: 'warn' }
      : { text: 'only in this browser', tone: 'warn' };
  if (item.pending) return { text: 'changes not yet sent', tone: 'warn' };
  return null;
}

/**
 * The list's items with their markers taken from the store's status: a pending save marks its name,
 * and a save that left the queue with nothing refused or in conflict reached the server. No list is
 * asked for: the status says it all.
 */
export function markersFromStatus(
  items: readonly ConfigListItem[],
  before: HybridStatus,
  after: HybridStatus,
): ConfigListItem[] {
  const was = pendingWrites(before);
  const now = pendingWrites(after);
  return items.map((item) => {
    const pending = now.get(item.name) === 'save';
    const delivered =
      was.get(item.name) === 'save' && after.names[item.name] === undefined;
    return delivered
      ? { ...item, pending, local: true, server: true }
      : { ...item, pending };
  });
}

/** The list with `name` saved in this browser just now (added when it is new), waiting to be sent. */
export function withLocalSave(
  items: readonly ConfigListItem[],
  name: string,
): ConfigListItem[] {
  if (!items.some((item) => item.name === name))
    return sortNames([...items.map((item) => item.name), name]).map(
      (n) =>
        items.find((item) => item.name === n) ?? {
          name,
          local: true,
          server: false,
          pending: true,
        },
    );
  return items.map((item) =>
    item.name === name ? { ...item, local: true, pending: true } : item,
  );
}
