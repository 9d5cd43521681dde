/**
 * The answer to a request Node's HTTP parser refuses before the app sees it (request line and headers
 * too large, an unknown method, conflicting length headers, headers not sent in time): JSON like every
 * other error answer, with the security headers and a request id, on a connection that then closes.
 */
import { randomUUID } from 'node:crypto';
import { STATUS_CODES, maxHeaderSize as nodeMaxHeaderSize } from 'node:http';
import type { Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Logger } from 'pino';
import { REQUEST_ID_HEADER } from './middleware/request-context.js';
import { securityHeaderRecord } from './middleware/security-headers.js';

/** What Node tells `clientError` listeners, beside the message. */
interface ParserError extends Error {
  readonly code?: string;
  /** The parser's own short description (`HPE_*` errors). */
  readonly reason?: string;
}

/** A refusal: the status and the `{ error }` message. */
interface Refusal {
  readonly status: number;
  readonly message: string;
}

/** What {@link answerClientErrors} needs besides the server. */
export interface ClientErrorOptions {
  readonly logger: Logger;
  /** The response still being written on this connection, if any: the refusal must wait for it. */
  readonly answering: (socket: Socket) => ServerResponse | undefined;
  /** The server's `maxHeaderSize`, when it was given one (otherwise Node's default applies). */
  readonly maxHeaderSize?: number | undefined;
}

/**
 * Answers the server's `clientError`s: a refusal the client can read when the connection can still take
 * one, after the answer to an earlier request on it (pipelined) if that is still being written;
 * otherwise (the client reset the connection) the connection is cut. One log line each, at info like the
 * access log, without the request's bytes.
 */
export function answerClientErrors(
  server: Server,
  options: ClientErrorOptions,
): void {
  const headerLimit = options.maxHeaderSize ?? nodeMaxHeaderSize;
  server.on('clientError', (error: ParserError, socket: Socket) => {
    const refusal = refusalOf(error, headerLimit);
    const remoteAddress = socket.remoteAddress;
    if (refusal === undefined || !socket.writable) {
      options.logger.debug(
        { code: error.code, remoteAddress },
        'connection cut after a client error',
      );
      socket.destroy();
      return;
    }
    const id = randomUUID();
    options.logger.info(
      {
        reqId: id,
        remoteAddress,
        status: refusal.status,
        code: error.code,
      },
      `request refused before routing: ${refusal.message}`,
    );
    const refuse = (): void => {
      if (!socket.writable) return void socket.destroy();
      // Wait until the answer has been handed to the system, then close: the parser cannot go on.
      socket.end(wireAnswer(refusal, id), () => socket.destroy());
    };
    const earlier = options.answering(socket);
    if (earlier === undefined) return refuse();
    earlier.once('finish', refuse);
    earlier.once('close', () => {
      if (!earlier.writableFinished) socket.destroy();
    });
  });
}

/** The refusal for a parser or timeout error, or `undefined` when there is no one left to answer. */
export function refusalOf(
  error: ParserError,
  headerLimit: number,
): Refusal | undefined {
  const code = error.code ?? '';
  if (code === 'HPE_HEADER_OVERFLOW')
    return {
      status: 431,
      message: `request line and headers are larger than ${headerLimit} bytes`,
    };
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT')
    return {
      status: 408,
      message: 'the request was not received in time',
    };
  if (!code.startsWith('HPE_')) return undefined;
  const reason = error.reason ?? '';
  if (code === 'HPE_INVALID_METHOD')
    return { status: 400, message: 'unknown HTTP method' };
  if (/Content-Length/.test(reason) && /Transfer-Encoding/.test(reason))
    return {
      status: 400,
      message:
        'conflicting length headers: both Content-Length and Transfer-Encoding',
    };
  if (/Duplicate Content-Length/i.test(reason))
    return {
      status: 400,
      message: 'conflicting length headers: more than one Content-Length',
    };
  return {
    status: 400,
    message: `malformed request${reason === '' ? '' : `: ${reason}`}`,
  };
}

/** A complete HTTP/1.1 answer with a JSON body, written straight to the socket. */
function wireAnswer(refusal: Refusal, id: string): string {
  const body = JSON.stringify({ error: refusal.message });
  const headers: Record<string, string> = {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': String(Buffer.byteLength(body)),
    Connection: 'close',
    [REQUEST_ID_HEADER]: id,
    ...securityHeaderRecord(),
  };
  const lines = Object.entries(headers).map(
    ([name, value]) => `${name}: ${value}`,
  );
  return `HTTP/1.1 ${refusal.status} ${STATUS_CODES[refusal.status] ?? ''}\r\n${lines.join('\r\n')}\r\n\r\n${body}`;
}
