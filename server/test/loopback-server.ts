/**
 * A plain HTTP server on 127.0.0.1 and a free port, opened by a test for its outbound requests to reach
 * (tests of the outbound module and the link checker send traffic nowhere else). It records what it is
 * asked and how many connections it saw.
 */
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A request as the server saw it. */
export interface SeenRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: IncomingMessage['headers'];
  readonly body: string;
}

/** A running loopback server. */
export interface LoopbackServer {
  /** `http://127.0.0.1:PORT` */
  readonly origin: string;
  readonly port: number;
  readonly requests: SeenRequest[];
  /** TCP connections accepted so far (a guard that refuses after connecting still shows here). */
  readonly connections: () => number;
  close(): Promise<void>;
}

/** Answers a request; the body has been read into `request.body`. */
export type Handler = (
  request: SeenRequest,
  response: ServerResponse,
) => void | Promise<void>;

/** Starts a server on 127.0.0.1 and a free port. */
export async function startLoopbackServer(
  handler: Handler,
): Promise<LoopbackServer> {
  const requests: SeenRequest[] = [];
  let connections = 0;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const seen: SeenRequest = {
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      requests.push(seen);
      Promise.resolve(handler(seen, res)).catch(() => res.destroy());
    });
  });
  server.on('connection', () => connections++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    port,
    requests,
    connections: () => connections,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
