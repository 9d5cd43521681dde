/**
 * The requests of `instructions.ts`: one at a time (`send`) or a range of a scenario's sequence over several
 * kept-alive connections (`sendRange`).
 */
import { Agent, request } from 'node:http';
import type {
  BenchRequest,
  RequestSequence,
} from './sequences/request-sequences.js';

const agent = new Agent({ keepAlive: true, maxSockets: 64 });

/**
 * Sends one request. A kept-alive socket the server closed while idle (its keep-alive timeout passes while
 * callgrind dumps a window, the server stalled) resets before any answer: the request is sent again on a
 * new socket, as Node's documentation advises for `reusedSocket`.
 */
export function send(port: number, req: BenchRequest): Promise<number> {
  return sendOnce(port, req).catch((error: unknown) => {
    if ((error as { reused?: boolean }).reused === true) return send(port, req);
    throw error;
  });
}

function sendOnce(port: number, req: BenchRequest): Promise<number> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = {};
    if (req.body !== undefined) {
      headers['content-type'] = 'application/json';
      headers['content-length'] = String(Buffer.byteLength(req.body));
    }
    const r = request(
      {
        host: '127.0.0.1',
        port,
        method: req.method,
        path: req.path,
        headers,
        agent,
      },
      (res) => {
        res.on('data', () => {});
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    r.on('error', (error: NodeJS.ErrnoException) => {
      reject(
        r.reusedSocket && error.code === 'ECONNRESET'
          ? Object.assign(error, { reused: true })
          : error,
      );
    });
    r.end(req.body);
  });
}

/** Where a range of a sequence goes. */
export interface Target {
  readonly port: number;
  readonly sequence: RequestSequence;
  readonly connections: number;
}

/** Sends requests `from` … `from + count - 1` of the sequence, `connections` at a time. */
export async function sendRange(
  { port, sequence, connections }: Target,
  from: number,
  count: number,
): Promise<void> {
  let next = from;
  const end = from + count;
  const worker = async () => {
    while (next < end) {
      const req = sequence.at(next++ % sequence.size);
      const status = await send(port, req);
      if (status >= 400)
        throw new Error(`${req.method} ${req.path}: ${status}`);
    }
  };
  await Promise.all(Array.from({ length: connections }, worker));
}
