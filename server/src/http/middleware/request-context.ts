/**
 * Request ids and the access log. Every request gets an id (the client's `X-Request-Id` when it is well
 * formed, otherwise a new UUID), every response carries it back, and every log line about the request
 * names it as `reqId`: the access line and, through {@link requestLogger}, errors logged while answering.
 */
import { randomUUID } from 'node:crypto';
import type { Context, MiddlewareHandler } from 'hono';
import { routePath } from 'hono/route';
import type { Logger } from 'pino';
import { clientAddress, nodeBindings } from '../client-address.js';
import { securityHeaderRecord } from './security-headers.js';

declare module 'hono' {
  interface ContextVariableMap {
    /** This request's id (see {@link requestContext}). */
    requestId: string;
    /** Set when the handler built the id and security headers into its response (`answerHeaders`). */
    answerHeaders: boolean;
  }
}

/** The header that carries a request's id, both ways. */
export const REQUEST_ID_HEADER = 'X-Request-Id';

/** What an accepted client id looks like: 1–128 characters that are safe in logs and headers. */
const WELL_FORMED_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Options of {@link requestContext}. */
export interface RequestContextOptions {
  readonly logger: Logger;
  /** Write one `request` line per request at level info (default true). */
  readonly accessLog?: boolean;
  /** Proxies trusted for `X-Forwarded-For` (see {@link clientAddress}). */
  readonly trustProxy?: number;
}

/** Long client-supplied texts are cut in the log: enough to recognise, too short to flood it. */
const clip = (text: string | undefined, max: number): string | undefined =>
  text === undefined || text.length <= max ? text : `${text.slice(0, max)}…`;

const byteCount = (value: unknown): number | undefined => {
  const n = Number(value);
  return value === undefined || value === null || !Number.isFinite(n)
    ? undefined
    : n;
};

/**
 * Assigns the request id, echoes it, and writes the access line: ISO time (from the logger), id, client
 * address, method, route pattern, path, status, milliseconds, bytes in and out, user agent. Bodies,
 * query strings and headers other than the user agent are never logged, so neither are tokens.
 */
export function requestContext(
  options: RequestContextOptions,
): MiddlewareHandler {
  const log = options.logger;
  const accessLog = options.accessLog ?? true;
  const trustProxy = options.trustProxy ?? 0;
  return async (c, next) => {
    const given = c.req.header(REQUEST_ID_HEADER);
    const id =
      given !== undefined && WELL_FORMED_ID.test(given) ? given : randomUUID();
    c.set('requestId', id);
    // Without an access line, nothing is measured: the request only gets its id.
    if (!accessLog || !log.isLevelEnabled('info')) {
      await next();
      if (c.get('answerHeaders') !== true)
        c.res.headers.set(REQUEST_ID_HEADER, id);
      return;
    }
    const started = performance.now();
    const node = nodeBindings(c);
    // Bytes sent are counted on the socket: @hono/node-server writes most headers (Content-Length
    // among them) straight to the wire, where the response object cannot tell them afterwards.
    const socket = node?.incoming?.socket;
    const writtenBefore = socket?.bytesWritten ?? 0;
    await next();
    // Handlers that build their own response put the id in it (`answerHeaders`); for the others it is
    // set on the response's headers (c.header() would take the response off @hono/node-server's fast path).
    if (c.get('answerHeaders') !== true)
      c.res.headers.set(REQUEST_ID_HEADER, id);
    const line = {
      reqId: id,
      addr: clientAddress(c, trustProxy),
      method: c.req.method,
      route: routePath(c),
      path: clip(c.req.path, 200),
      status: c.res.status,
      ms: 0,
      bytesIn: byteCount(c.req.header('content-length')) ?? 0,
      bytesOut: undefined as number | undefined,
      ua: clip(c.req.header('user-agent'), 200),
    };
    const write = (bytesOut: number | undefined, aborted: boolean): void => {
      line.ms = Math.round((performance.now() - started) * 10) / 10;
      line.bytesOut = bytesOut;
      log.info(aborted ? { ...line, aborted } : line, 'request');
    };
    const outgoing = node?.outgoing;
    if (outgoing === undefined || socket === undefined) {
      // In-process (`app.request`): no socket, so the declared length is all there is to report.
      write(byteCount(c.res.headers.get('content-length')), false);
      return;
    }
    // Under Node the line is written once the response is sent, so the time includes sending it and
    // the byte count is what went to the socket (status line and headers included).
    outgoing.once('close', () =>
      write(socket.bytesWritten - writtenBefore, !outgoing.writableFinished),
    );
  };
}

/**
 * The headers every answer carries (the request id and the security headers), for a handler to build
 * into its `Response`: then nothing is added afterwards and @hono/node-server sends the response on its
 * fast path (plain header object, no `Headers` built).
 */
export function answerHeaders(c: Context): Record<string, string> {
  c.set('answerHeaders', true);
  const headers = securityHeaderRecord();
  const id = c.get('requestId');
  if (id !== undefined) headers[REQUEST_ID_HEADER] = id;
  return headers;
}

/**
 * A logger whose lines carry this request's id: use it for anything logged while answering a request
 * (errors above all), so the line can be found from the id a client reports.
 */
export function requestLogger(c: Context, logger: Logger): Logger {
  const id = c.get('requestId');
  return id === undefined ? logger : logger.child({ reqId: id });
}
