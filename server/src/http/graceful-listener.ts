/**
 * Serving HTTP with a graceful stop: after `stop` starts, answers close their connections; requests
 * already sent on open connections are still read and answered for a short while, then new ones get
 * 503; requests in progress run to their end until the grace period is over.
 */
import type { Server, ServerOptions, ServerResponse } from 'node:http';
import { Server as NetServer } from 'node:net';
import type { AddressInfo, Socket } from 'node:net';
import { serve } from '@hono/node-server';
import type { Hono } from 'hono';
import type { Logger } from 'pino';
import { answerClientErrors } from './client-error.js';

/** After a stop begins, how long requests already sent on open connections are still read and answered. */
const SETTLE_MS = 250;

/**
 * A client gets 60 s to send a whole request (Node's default is 5 minutes): stalled uploads cannot hold
 * sockets for long.
 */
const SERVER_OPTIONS: ServerOptions = {
  requestTimeout: 60_000,
  headersTimeout: 20_000,
};

/** A listening HTTP server that stops gracefully. */
export interface GracefulListener {
  readonly port: number;
  /** Stops accepting, lets in-flight requests finish for up to `graceMs`, then cuts what is left. */
  stop(graceMs: number): Promise<void>;
}

/**
 * Serves `app` on `port` and `hostname`; resolves once the server listens. Requests Node's parser refuses
 * are answered in JSON and logged to `logger` (`client-error.ts`).
 */
export async function listenGracefully(
  app: Hono,
  where: { readonly port: number; readonly hostname: string },
  logger: Logger,
): Promise<GracefulListener> {
  // While stopping (`draining`), answers close their connections; a little later a request that
  // arrives anyway (on a connection opened before) gets 503 (`refusing`).
  let draining = false;
  let refusing = false;
  const server = serve({
    fetch: (request, env) =>
      refusing ? unavailableWhileStopping() : app.fetch(request, env),
    serverOptions: SERVER_OPTIONS,
    port: where.port,
    hostname: where.hostname,
  });
  const inFlight = trackResponses(server as Server, () => draining);
  answerClientErrors(server as Server, {
    logger,
    answering: (socket) => inFlight.answering(socket),
    maxHeaderSize: SERVER_OPTIONS.maxHeaderSize,
  });
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
  });
  const { port } = server.address() as AddressInfo;
  const stop = async (graceMs: number): Promise<void> => {
    // Stop accepting, but without Node's instant close of idle keep-alive connections
    // (`http.Server#close` does that): a request already sent on one may not have been read yet, and
    // closing it would reset that request. Every answer from now on closes its connection.
    draining = true;
    for (const response of inFlight)
      if (!response.headersSent) response.shouldKeepAlive = false;
    const stopped = new Promise<void>((resolve) =>
      NetServer.prototype.close.call(server, () => resolve()),
    );
    // Once what was sent before the stop has been read, requests get 503 and idle connections are
    // closed; requests in progress run to their end; whatever is open at the deadline is cut.
    const http = server as Partial<Server>;
    let sweep: ReturnType<typeof setInterval> | undefined;
    const settle = setTimeout(() => {
      refusing = true;
      http.closeIdleConnections?.();
      sweep = setInterval(() => http.closeIdleConnections?.(), 25);
    }, SETTLE_MS);
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([
      stopped,
      new Promise<void>((resolve) => {
        timer = setTimeout(resolve, graceMs);
      }),
    ]);
    clearTimeout(settle);
    clearInterval(sweep);
    clearTimeout(timer);
    http.closeAllConnections?.();
    await stopped;
  };
  return { port, stop };
}

/** The answer to a request that arrives while the server stops. */
function unavailableWhileStopping(): Response {
  return new Response(JSON.stringify({ error: 'the server is stopping' }), {
    status: 503,
    headers: {
      'Content-Type': 'application/json; charset=utf-8',
      Connection: 'close',
      'Retry-After': '1',
    },
  });
}

/**
 * The responses not yet finished (a live view, per server), and the one under way on a given connection. While `stopping()` holds, every new response closes its connection. Kept as the latest response of each open connection, so a request costs one
 * map entry set rather than a listener added and removed: a connection answers its requests in order,
 * and the latest one's `Connection: close` ends it once everything before has been sent.
 */
function trackResponses(
  server: Server,
  stopping: () => boolean,
): {
  readonly [Symbol.iterator]: () => Iterator<ServerResponse>;
  readonly answering: (socket: Socket) => ServerResponse | undefined;
} {
  const latest = new Map<Socket, ServerResponse>();
  server.on('connection', (socket: Socket) => {
    socket.once('close', () => latest.delete(socket));
  });
  // Before the application's own listener, which may answer at once.
  server.prependListener('request', (request, response) => {
    if (stopping()) response.shouldKeepAlive = false;
    latest.set(request.socket, response);
  });
  return {
    *[Symbol.iterator]() {
      for (const response of latest.values())
        if (!response.writableFinished) yield response;
    },
    answering: (socket) => {
      const response = latest.get(socket);
      return response?.writableFinished === false ? response : undefined;
    },
  };
}
