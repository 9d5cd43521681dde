/**
 * The one way the server makes HTTP requests of its own (link checks, cache purges, webhooks): one undici
 * agent whose every connection passes the guard (`guarded-connector.ts`), with a time limit on the whole
 * exchange, a cap on the bytes read, and no credentials ever sent. Redirects are never followed here;
 * `redirects.ts` follows them hop by hop, each hop a new request through this same guard.
 */
import type { Readable } from 'node:stream';
import { Agent, request as undiciRequest } from 'undici';
import { SYSTEM_CLOCK } from '../clock.js';
import type { Clock } from '../clock.js';
import { OutboundAllowList } from './address-policy.js';
import {
  defaultPort,
  guardedConnector,
  hostRefusal,
} from './guarded-connector.js';
import type { Resolver, SocketOpener } from './guarded-connector.js';
import { OutboundError, refused, toOutboundError } from './outbound-error.js';
import { tellingSent } from './sent-signal.js';

/** Default cap of the body bytes read from an answer. */
export const DEFAULT_MAX_BYTES = 64 * 1024;
/** Default time limit of one exchange (connect, send, headers and the body read), ms. */
export const DEFAULT_TIMEOUT_MS = 10_000;

/** The token robots.txt groups name this server by (`User-agent: linkconfig`). */
export const AGENT_TOKEN = 'linkconfig';

/** The `User-Agent` of outbound requests, naming `contact` (`OUTBOUND_CONTACT`) when there is one. */
export function userAgentOf(contact?: string): string {
  return contact === undefined
    ? `${AGENT_TOKEN}/1.0 (link checker and webhooks)`
    : `${AGENT_TOKEN}/1.0 (link checker and webhooks; +${contact})`;
}

/** Request headers that carry credentials: never sent, whoever asks. */
const CREDENTIAL_HEADERS = new Set([
  'authorization',
  'proxy-authorization',
  'cookie',
]);

/** One outbound request. */
export interface OutboundRequest {
  readonly url: string | URL;
  /** `GET` (default), `HEAD`, `POST`, `PURGE`, `BAN`, … */
  readonly method?: string;
  /** Extra request headers (never `Authorization`, `Proxy-Authorization` or `Cookie`). */
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: string | Uint8Array;
  /** Most body bytes read from the answer (default 64 KiB); the rest is not read. */
  readonly maxBytes?: number;
  /** Time limit of the whole exchange, ms (default 10 s). */
  readonly timeoutMs?: number;
  /** Who asks (`link-check`, `purge`, `webhook`): the label of `/metrics`. */
  readonly purpose: string;
  readonly signal?: AbortSignal;
  /**
   * Called when the request's head is written to the socket (after the connection's set-up and the
   * guard's checks): the moment a host sees it leave. Not called for a request that never leaves.
   */
  readonly onSent?: () => void;
}

/** An answer: its status, headers and at most `maxBytes` of its body. */
export interface OutboundResponse {
  /** The URL requested (without credentials). */
  readonly url: string;
  readonly status: number;
  /** Header names in lower case; repeated headers joined with `, `. */
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Uint8Array;
  /** The answer had more body than was read. */
  readonly truncated: boolean;
}

/** Options of {@link Outbound}. */
export interface OutboundOptions {
  /** `OUTBOUND_ALLOW`: literal `IP:PORT` pairs allowed although not public. */
  readonly allow?: OutboundAllowList;
  /** The `User-Agent` of every request. */
  readonly userAgent: string;
  /** Times the limits (default: the system clock). */
  readonly clock?: Clock;
  /** Resolves names (default: the system's); tests pass their own. */
  readonly resolve?: Resolver;
  /** Opens sockets behind the guard (default: undici's); tests only. */
  readonly connector?: SocketOpener;
}

/** What `/metrics` reads: requests by purpose and outcome, refusals by reason. */
export interface OutboundStats {
  readonly requests: ReadonlyMap<string, number>;
  readonly refusals: ReadonlyMap<string, number>;
}

/** The server's outbound HTTP, behind the SSRF guard. */
export class Outbound {
  readonly #agent: Agent;
  readonly #allow: OutboundAllowList;
  readonly #userAgent: string;
  readonly #clock: Clock;
  readonly #requests = new Map<string, number>();
  readonly #refusals = new Map<string, number>();

  constructor(options: OutboundOptions) {
    this.#allow = options.allow ?? new OutboundAllowList();
    this.#userAgent = options.userAgent;
    this.#clock = options.clock ?? SYSTEM_CLOCK;
    this.#agent = new Agent({
      connect: guardedConnector({
        allow: this.#allow,
        connectTimeoutMs: DEFAULT_TIMEOUT_MS,
        ...(options.resolve === undefined ? {} : { resolve: options.resolve }),
        ...(options.connector === undefined ? {} : { base: options.connector }),
      }),
      // Our own limit (timed by the clock) ends every exchange; these are only a backstop.
      headersTimeout: 6 * DEFAULT_TIMEOUT_MS,
      bodyTimeout: 6 * DEFAULT_TIMEOUT_MS,
      keepAliveTimeout: 4_000,
      connections: 8,
    });
  }

  /** The clock of the time limits. */
  get clock(): Clock {
    return this.#clock;
  }

  /** The allowlist this module applies (`OUTBOUND_ALLOW`). */
  get allowList(): OutboundAllowList {
    return this.#allow;
  }

  /**
   * Sends one request and reads at most `maxBytes` of the answer's body. Throws an
   * {@link OutboundError}: `refused` by the guard, or `dns`, `connect`, `tls`, `timeout`, `url`.
   */
  async send(request: OutboundRequest): Promise<OutboundResponse> {
    try {
      const response = await this.#send(request);
      this.#count(request.purpose, 'answered');
      return response;
    } catch (error) {
      const failure = toOutboundError(error);
      this.#count(request.purpose, failure.kind);
      if (failure.kind === 'refused') {
        const reason = failure.reason ?? 'unknown';
        this.#refusals.set(reason, (this.#refusals.get(reason) ?? 0) + 1);
      }
      throw failure;
    }
  }

  /**
   * Whether the guard refuses `url` before any connection (its scheme, a `localhost` name, an address
   * literal that is not public): a caller that paces requests need not wait its turn to be refused.
   */
  refusesAtOnce(url: string | URL): boolean {
    try {
      const target = requestable(url);
      return hostRefusal(target.hostname, portOf(target), this.#allow) !== null;
    } catch (error) {
      return error instanceof OutboundError && error.kind === 'refused';
    }
  }

  /** Counts so far, for `/metrics`. */
  stats(): OutboundStats {
    return { requests: this.#requests, refusals: this.#refusals };
  }

  /** Closes the agent's connections. */
  async close(): Promise<void> {
    await this.#agent.close();
  }

  async #send(request: OutboundRequest): Promise<OutboundResponse> {
    const url = requestable(request.url);
    // Refused before any timer or socket: the same check the connector makes, said early.
    const early = hostRefusal(url.hostname, portOf(url), this.#allow);
    if (early !== null) throw early;
    const headers = this.#headers(request.headers);
    const maxBytes = request.maxBytes ?? DEFAULT_MAX_BYTES;
    const limit = new AbortController();
    const settled = new AbortController();
    const timeoutMs = request.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.#clock.sleep(timeoutMs, settled.signal).then(
      () =>
        limit.abort(
          new OutboundError('timeout', `no complete answer in ${timeoutMs} ms`),
        ),
      () => undefined,
    );
    const signal =
      request.signal === undefined
        ? limit.signal
        : AbortSignal.any([limit.signal, request.signal]);
    try {
      const answer = await undiciRequest(url, {
        dispatcher:
          request.onSent === undefined
            ? this.#agent
            : tellingSent(this.#agent, request.onSent),
        method: (request.method ?? 'GET') as 'GET',
        headers,
        ...(request.body === undefined ? {} : { body: request.body }),
        signal,
      });
      const { body, truncated } = await readCapped(answer.body, maxBytes);
      return {
        url: url.href,
        status: answer.statusCode,
        headers: flatHeaders(answer.headers),
        body,
        truncated,
      };
    } catch (error) {
      if (limit.signal.aborted) throw limit.signal.reason;
      throw error;
    } finally {
      settled.abort();
    }
  }

  #headers(
    extra: Readonly<Record<string, string>> | undefined,
  ): Record<string, string> {
    const headers: Record<string, string> = {
      'user-agent': this.#userAgent,
      accept: '*/*',
    };
    for (const [name, value] of Object.entries(extra ?? {})) {
      const key = name.toLowerCase();
      if (CREDENTIAL_HEADERS.has(key)) {
        throw new OutboundError(
          'url',
          `outbound requests never send ${name} (credentials)`,
        );
      }
      headers[key] = value;
    }
    return headers;
  }

  #count(purpose: string, outcome: string): void {
    const key = `${purpose}|${outcome}`;
    this.#requests.set(key, (this.#requests.get(key) ?? 0) + 1);
  }
}

/**
 * The URL as it is requested: http or https only, and without the user name and password a URL may
 * carry (credentials are never sent).
 */
export function requestable(input: string | URL): URL {
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    throw new OutboundError('url', `not a URL: ${String(input)}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw refused('scheme', `${url.protocol} URLs are not requested`);
  }
  url.username = '';
  url.password = '';
  url.hash = '';
  return url;
}

/** The port a URL reaches. */
export function portOf(url: URL): number {
  return url.port === '' ? defaultPort(url.protocol) : Number(url.port);
}

/** Reads at most `maxBytes` of a body, then stops reading (the connection closes with the stream). */
async function readCapped(
  stream: Readable,
  maxBytes: number,
): Promise<{ body: Buffer; truncated: boolean }> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    const room = maxBytes - size;
    if (chunk.length > room) {
      if (room > 0) chunks.push(chunk.subarray(0, room));
      stream.destroy();
      return { body: Buffer.concat(chunks, maxBytes), truncated: true };
    }
    chunks.push(chunk);
    size += chunk.length;
  }
  return { body: Buffer.concat(chunks, size), truncated: false };
}

function flatHeaders(
  headers: Record<string, string | string[] | undefined>,
): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined)
      flat[name.toLowerCase()] = Array.isArray(value)
        ? value.join(', ')
        : value;
  }
  return flat;
}
