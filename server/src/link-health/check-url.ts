/**
 * One check of one URL (docs/link-health.md#how-a-link-is-checked): robots.txt first, then `HEAD`, then a
 * `GET` reading at most 64 KiB when the `HEAD` answer cannot be trusted (405, 501, 403, 400); redirects
 * followed hop by hop through the outbound guard, at most 5, within one time limit. Every request is paced
 * per host ({@link HostPacer}). What it found becomes a {@link CheckOutcome}; the state rules are
 * `link-transition.ts`'s.
 */
import type { Clock } from '../clock.js';
import {
  followRedirects,
  OutboundError,
  RedirectChainError,
} from '../outbound/index.js';
import type {
  FollowedResponse,
  Outbound,
  OutboundRequest,
  OutboundResponse,
} from '../outbound/index.js';
import { hostOf } from '../storage/link-health-store.js';
import type { HostPacer } from './host-pacer.js';
import type { CheckOutcome } from './link-transition.js';
import type { RobotsRules } from './robots-rules.js';

/** Statuses after which a `HEAD` answer is not trusted and a `GET` asks again. */
const HEAD_UNRELIABLE = new Set([400, 403, 405, 501]);
/** Body bytes a `GET` reads at most. */
const GET_MAX_BYTES = 64 * 1024;
/** Bounds of a `Retry-After` we honour: at least a minute, at most a day. */
const RETRY_MIN_MS = 60_000;
const RETRY_MAX_MS = 86_400_000;
/** When to ask again after a 429 that says nothing. */
const RETRY_DEFAULT_MS = 3_600_000;

/** What a check needs. */
export interface CheckDeps {
  readonly outbound: Outbound;
  readonly pacer: HostPacer;
  readonly robots: RobotsRules;
  readonly clock: Clock;
  /** Time limit of one chain of requests, ms (10 s). */
  readonly timeoutMs: number;
}

/** Sends one request through the pacer of its host. */
export function pacedSend(
  deps: Pick<CheckDeps, 'outbound' | 'pacer'>,
): (request: OutboundRequest) => Promise<OutboundResponse> {
  return (request) =>
    // A request the guard refuses at once costs its host nothing: it is refused without waiting a turn.
    deps.outbound.refusesAtOnce(request.url)
      ? deps.outbound.send(request)
      : deps.pacer.run(hostOf(String(request.url)), (sent) =>
          // The host's spacing counts from the moment this request is written to its socket.
          deps.outbound.send({ ...request, onSent: sent }),
        );
}

/** Checks `url` once. */
export async function checkUrl(
  url: string,
  deps: CheckDeps,
): Promise<CheckOutcome> {
  if (!(await deps.robots.allows(url))) {
    return {
      kind: 'blocked',
      status: null,
      finalUrl: null,
      reason: 'robots.txt',
    };
  }
  const send = pacedSend(deps);
  const chain = (method: 'HEAD' | 'GET'): Promise<FollowedResponse> =>
    followRedirects(
      deps.outbound,
      {
        url,
        method,
        purpose: 'link-check',
        timeoutMs: deps.timeoutMs,
        ...(method === 'GET' ? { maxBytes: GET_MAX_BYTES } : { maxBytes: 0 }),
      },
      { send },
    );
  try {
    let followed = await chain('HEAD');
    if (HEAD_UNRELIABLE.has(followed.response.status))
      followed = await chain('GET');
    return outcomeOf(url, followed, deps.clock.now());
  } catch (error) {
    return failureOf(error);
  }
}

/** What an answer (the end of a chain) says of the link. */
function outcomeOf(
  url: string,
  { response, permanent }: FollowedResponse,
  now: number,
): CheckOutcome {
  const { status } = response;
  const finalUrl = response.url;
  const retryAfter = retryAfterMs(response.headers['retry-after'], now);
  if (status === 429 || (status === 503 && retryAfter !== null)) {
    return {
      kind: 'retry',
      status,
      finalUrl,
      reason: `HTTP ${status}, asked again later`,
      retryAfterMs: retryAfter ?? RETRY_DEFAULT_MS,
    };
  }
  if (status >= 400) {
    return { kind: 'broken', status, finalUrl, reason: `HTTP ${status}` };
  }
  if (permanent && finalUrl !== url) {
    return {
      kind: 'redirected',
      status,
      finalUrl,
      reason: 'moved permanently',
    };
  }
  return { kind: 'ok', status, finalUrl, reason: null };
}

/** What a chain that got no final answer says of the link. */
function failureOf(error: unknown): CheckOutcome {
  const failure =
    error instanceof OutboundError
      ? error
      : new OutboundError('connect', String(error));
  const hops = error instanceof RedirectChainError ? error.hops : [];
  const last = hops.at(-1);
  const finalUrl = last?.location ?? null;
  switch (failure.kind) {
    case 'refused':
      return {
        kind: 'blocked',
        status: null,
        finalUrl,
        reason: `refused: ${failure.reason ?? 'unknown'}`,
      };
    case 'redirects':
      return {
        kind: 'broken',
        status: last?.status ?? null,
        finalUrl,
        reason: 'too many redirects',
      };
    case 'url':
      return {
        kind: 'broken',
        status: null,
        finalUrl,
        reason: failure.message,
      };
    case 'dns':
    case 'connect':
    case 'tls':
    case 'timeout':
      return {
        kind: 'unreachable',
        status: null,
        finalUrl,
        reason: failure.kind,
      };
  }
}

/** A `Retry-After` value (seconds, or an HTTP date) as ms from `now`, within bounds; `null`: none. */
export function retryAfterMs(
  header: string | undefined,
  now: number,
): number | null {
  if (header === undefined) return null;
  const text = header.trim();
  let ms: number;
  if (/^\d+$/.test(text)) ms = Number(text) * 1000;
  else {
    const at = Date.parse(text);
    if (Number.isNaN(at)) return null;
    ms = at - now;
  }
  return Math.min(RETRY_MAX_MS, Math.max(RETRY_MIN_MS, ms));
}
