/**
 * Server-Sent Events framing of the change feed. Each change is serialized and encoded once, then the
 * same bytes go to every stream.
 */
import type { ChangeEvent, FeedEvent } from '@linkconfig/shared';
import type { Change } from '../storage/config-repository.js';

const encoder = new TextEncoder();

/** `id:`, `event: change` and the JSON of the change: what every subscriber of one change receives. */
export function changeFrame(change: Change): Uint8Array {
  const data: ChangeEvent = {
    name: change.name,
    op: change.op,
    etag: change.etag,
    updatedAt: change.updatedAt,
  };
  return encoder.encode(
    `id: ${change.id}\nevent: change\ndata: ${JSON.stringify(data)}\n\n`,
  );
}

/**
 * `id:`, `event: <type>` (`publish`, `unpublish`, `link-broken`, `link-recovered`) and `{ name, at,
 * detail }`: an event of the log about one config. Clients that listen only for `change` ignore it.
 */
export function eventFrame(id: number, event: FeedEvent): Uint8Array {
  const data = { name: event.name, at: event.at, detail: event.detail };
  return encoder.encode(
    `id: ${id}\nevent: ${event.type}\ndata: ${JSON.stringify(data)}\n\n`,
  );
}

/**
 * `event: reset`: the id the client resumed from is older than the kept history, or newer than the
 * newest change. Its `id:` is the head,
 * so a client that re-lists and stays connected resumes from there next time.
 */
export function resetFrame(head: number): Uint8Array {
  return encoder.encode(`id: ${head}\nevent: reset\ndata: {}\n\n`);
}

/** A comment line: keeps proxies and clients from timing out an idle stream. */
export const HEARTBEAT_FRAME = encoder.encode(': heartbeat\n\n');

/**
 * The first bytes of a stream: `retry:` (how long `EventSource` waits before reconnecting) and a comment,
 * which also makes the response headers go out at once.
 */
export const OPENING_FRAME = encoder.encode('retry: 2000\n: connected\n\n');
