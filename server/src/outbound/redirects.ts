/**
 * Following redirects through the outbound module, hop by hop: each hop is a new request, so the guard
 * checks each one's host, resolved addresses and connected address again, and the chain shares one time
 * limit.
 */
import { OutboundError } from './outbound-error.js';
import { DEFAULT_TIMEOUT_MS } from './outbound.js';
import type {
  Outbound,
  OutboundRequest,
  OutboundResponse,
} from './outbound.js';

/** Statuses that redirect (with a `Location`). */
const REDIRECTS = new Set([301, 302, 303, 307, 308]);
/** Of those, the permanent ones: the link has moved. */
const PERMANENT = new Set([301, 308]);

/** Default most redirects followed. */
export const DEFAULT_MAX_REDIRECTS = 5;

/** One redirect on the way: where it was, its status and where it pointed. */
export interface RedirectHop {
  readonly url: string;
  readonly status: number;
  readonly location: string;
}

/** The final answer of a chain, and the redirects that led to it. */
export interface FollowedResponse {
  readonly response: OutboundResponse;
  readonly hops: readonly RedirectHop[];
  /** Every redirect of the chain was permanent (and there was at least one). */
  readonly permanent: boolean;
}

/** A hop that failed, with the redirects before it (a refused redirect target is still a redirect). */
export class RedirectChainError extends OutboundError {
  constructor(
    cause: OutboundError,
    readonly hops: readonly RedirectHop[],
  ) {
    super(cause.kind, cause.message, cause.reason);
  }
}

/** Options of {@link followRedirects}. */
export interface FollowOptions {
  readonly maxRedirects?: number;
  /**
   * Sends each hop (default: `outbound.send`); a caller that paces its requests per host passes its own,
   * which must send through the same `outbound`.
   */
  readonly send?: (request: OutboundRequest) => Promise<OutboundResponse>;
}

/**
 * Sends `request` and follows its redirects (at most `maxRedirects`, default 5): a `303` turns the next
 * hop into a `GET` (a `HEAD` stays `HEAD`); a body is sent on the first hop only. Throws a
 * {@link RedirectChainError} for a hop that fails, `kind: 'redirects'` when the chain is too long.
 */
export async function followRedirects(
  outbound: Outbound,
  request: OutboundRequest,
  options: FollowOptions = {},
): Promise<FollowedResponse> {
  const clock = outbound.clock;
  const send = options.send ?? ((hop: OutboundRequest) => outbound.send(hop));
  const maxRedirects = options.maxRedirects ?? DEFAULT_MAX_REDIRECTS;
  const deadline = clock.now() + (request.timeoutMs ?? DEFAULT_TIMEOUT_MS);
  const hops: RedirectHop[] = [];
  let current: OutboundRequest = request;
  for (;;) {
    let response: OutboundResponse;
    try {
      response = await send({
        ...current,
        timeoutMs: Math.max(1, deadline - clock.now()),
      });
    } catch (error) {
      throw new RedirectChainError(error as OutboundError, hops);
    }
    const location = response.headers['location'];
    if (!REDIRECTS.has(response.status) || location === undefined) {
      return {
        response,
        hops,
        permanent:
          hops.length > 0 && hops.every((h) => PERMANENT.has(h.status)),
      };
    }
    let next: URL;
    try {
      next = new URL(location, response.url);
    } catch {
      // A Location that is no URL ends the chain at this answer.
      return { response, hops, permanent: false };
    }
    hops.push({
      url: response.url,
      status: response.status,
      location: next.href,
    });
    if (hops.length > maxRedirects) {
      throw new RedirectChainError(
        new OutboundError('redirects', `more than ${maxRedirects} redirects`),
        hops,
      );
    }
    const method = current.method ?? 'GET';
    const { body: _sent, ...rest } = current;
    current = {
      ...rest,
      url: next,
      method: response.status === 303 && method !== 'HEAD' ? 'GET' : method,
    };
  }
}
