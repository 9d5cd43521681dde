/**
 * Reuse of whole REST answers (`rest.reusable` routes; the `responses` cache of `cache/cache-policy.ts`):
 * an answer is kept under the route, the caller's read view and the request as received, for the stored
 * state it was computed from (the change token) and until its own time limit (`Outcome.validUntil`).
 * Callers who may read different names never share an answer.
 */
import type { Context as HonoContext } from 'hono';
import type { ResponseCache } from '../../cache/response-cache.js';
import type { Context } from '../../context.js';
import type { ReceivedJson } from '../../received-json.js';
import type { RestRoute } from './route-table.js';

/** A request's place among the kept answers. */
export interface Reuse {
  /** The answer kept for this request under the current stored state, if any. */
  readonly kept: string | undefined;
  /** Keeps `body`, the answer computed now, while the stored state holds and until `validUntil` (ms). */
  keep(body: string, validUntil: number | undefined): void;
}

/**
 * The reuse of a request's answer, or `undefined` when it is not reused: its route is not reusable, its
 * body is not kept as a key, or the repository cannot tell its state.
 */
export async function responseReuse(
  route: RestRoute,
  c: HonoContext,
  asked: {
    readonly ctx: Context;
    readonly body: ReceivedJson | undefined;
    readonly responses: ResponseCache;
  },
): Promise<Reuse | undefined> {
  if (!route.reusable) return undefined;
  const { ctx, responses } = asked;
  const key = reuseKey(route, c, {
    body: asked.body,
    view: ctx.auth.readView(),
  });
  if (key === undefined) return undefined;
  const token = await ctx.stateToken();
  if (token === null) return undefined;
  return {
    kept: responses.get(key, token, ctx.services.now()),
    keep: (body, validUntil) => {
      responses.offer(
        key,
        { body, token, validUntil: validUntil ?? Infinity },
        ctx.services.now(),
      );
    },
  };
}

/**
 * The key a reusable answer is kept under: the route, the caller's read view and the request as received
 * (the raw query string, or the body's text). Anything that changes the answer is in it; equal keys mean
 * equal inputs.
 */
function reuseKey(
  route: RestRoute,
  c: HonoContext,
  { body, view }: { body: ReceivedJson | undefined; view: string },
): string | undefined {
  if (route.source === 'fields') {
    return body === undefined ? undefined : `${route.id} ${view} ${body.text}`;
  }
  const url = c.req.url;
  const query = url.indexOf('?');
  return `${route.id} ${view} ${query < 0 ? '' : url.slice(query)}`;
}
