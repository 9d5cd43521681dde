import type { HttpBindings } from '@hono/node-server';
import { EventIdSchema } from '@linkconfig/shared';
import type { Context as HonoContext, Hono } from 'hono';
import type { Context } from '../../context.js';
import { REFUSAL_MESSAGES } from '../../events/feed-options.js';
import type { Refusal } from '../../events/feed-options.js';
import { openSseStream } from '../../events/sse-stream.js';
import { watchAccess } from '../../keys/access-watch.js';
import { accessDenied } from '../../access-check.js';
import { HttpError } from '../http-error.js';

/** What the events route needs from the app. */
export interface EventsRouteDeps {
  /** The per-request context (services and the caller's access). */
  readonly context: (c: HonoContext) => Context;
}

/** Seconds a client refused for the stream cap is asked to wait. */
const RETRY_AFTER_SECONDS = 5;

/**
 * `GET /events`: the change feed as Server-Sent Events (`EventSource` works with it). Each committed
 * change is `id: <change id>`, `event: change`, `data: {"name","op","etag","updatedAt"}`; a client resumes
 * with `Last-Event-ID` (or `?lastEventId=` where it cannot set headers) and first gets every change after
 * that id; `event: reset` means the id is older than the kept history or newer than the newest change
 * (list again). Same access as reads.
 * Over the stream cap: 503 with `Retry-After`.
 */
export function mountEventsRoute(app: Hono, deps: EventsRouteDeps): void {
  app.get('/events', async (c) => {
    const ctx = deps.context(c);
    const denied = accessDenied(ctx.auth, 'read');
    if (denied !== null) throw HttpError.of(denied);
    const lastEventId = parseLastEventId(
      c.req.header('last-event-id') ?? c.req.query('lastEventId'),
    );
    const feed = ctx.services.changes;
    // "From now on" is fixed before the answer: a change the client makes on receiving it is sent.
    const after = lastEventId ?? (await feed.startingPoint());
    if (typeof after === 'string') throw unavailable(after);
    // On Node, the socket: a consumer that cannot keep up is hung up on without an error log.
    const outgoing = (c.env as Partial<HttpBindings> | undefined)?.outgoing;
    const stream = openSseStream(feed, {
      lastEventId: after,
      hangUp: outgoing === undefined ? undefined : () => outgoing.destroy(),
      readable: ctx.auth.canRead,
    });
    if (typeof stream === 'string') throw unavailable(stream);
    // A key revoked or expired while the stream is open ends it (the client reconnects and gets 401):
    // the answer ends as a finished stream does, not aborted (which would cut the connection and log
    // the abort on stderr).
    const lost = new AbortController();
    const stop = watchAccess(ctx.stillValid, () => lost.abort());
    const { readable, writable } = new TransformStream<
      Uint8Array,
      Uint8Array
    >();
    stream
      .pipeTo(writable, { signal: lost.signal, preventAbort: true })
      .catch(() => undefined)
      .finally(() => {
        stop();
        if (lost.signal.aborted) writable.close().catch(() => undefined);
      });
    return new Response(readable, {
      headers: {
        'Content-Type': 'text/event-stream; charset=utf-8',
        // `no-transform`: proxies must neither compress nor buffer the stream.
        'Cache-Control': 'no-cache, no-transform',
        'X-Accel-Buffering': 'no',
      },
    });
  });
  app.all('/events', () => {
    throw new HttpError(405, 'method not allowed; use GET', { Allow: 'GET' });
  });
}

/** The answer to a stream the feed refused (over the cap, shutting down, or its log unreadable). */
function unavailable(refusal: Refusal): HttpError {
  return new HttpError(503, REFUSAL_MESSAGES[refusal], {
    'Retry-After': String(RETRY_AFTER_SECONDS),
  });
}

/** The id to resume after; absent or empty means "from now on". */
function parseLastEventId(value: string | undefined): number | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const parsed = EventIdSchema.safeParse(value.trim());
  if (!parsed.success) {
    throw new HttpError(
      400,
      'Last-Event-ID must be the decimal id of an event this server sent',
    );
  }
  return Number(parsed.data);
}
