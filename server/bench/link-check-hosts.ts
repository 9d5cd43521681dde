/**
 * The test sites of the link checker's benchmark, in a process of their own (a real site is another
 * machine): so the moment each request arrives is read on an event loop the checker's work does not hold
 * up. Started by `link-check.bench.ts` over IPC: it sends `{ ports }` once listening, and answers
 * `'report'` with what each host saw.
 *
 * `node --import tsx server/bench/link-check-hosts.ts HOSTS` (as a child with an IPC channel only).
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What one host saw: requests, the most open at once, the smallest gap between two arrivals (ms). */
export interface HostLog {
  count: number;
  open: number;
  maxOpen: number;
  last: number;
  minGap: number;
  /** Gaps shorter than a second. */
  short: number;
}

/** What the hosts tell the benchmark. */
export type HostsMessage =
  | { readonly ports: number[] }
  | { readonly logs: HostLog[]; readonly maxOpenAll: number };

const hosts = Number(process.argv[2] ?? '50');
const logs: HostLog[] = [];
let openAll = 0;
let maxOpenAll = 0;

function startHost(log: HostLog): Promise<number> {
  const server = createServer((request, response) => {
    const now = performance.now();
    log.minGap = Math.min(log.minGap, now - log.last);
    if (now - log.last < 1000) log.short++;
    log.last = now;
    log.count++;
    log.open++;
    openAll++;
    log.maxOpen = Math.max(log.maxOpen, log.open);
    maxOpenAll = Math.max(maxOpenAll, openAll);
    response.once('close', () => {
      log.open--;
      openAll--;
    });
    request.resume();
    // A site that takes a little time to answer.
    setTimeout(() => response.writeHead(200).end(), 20);
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve((server.address() as AddressInfo).port),
    ),
  );
}

const ports = await Promise.all(
  Array.from({ length: hosts }, (_, i) => {
    const log: HostLog = {
      count: 0,
      open: 0,
      maxOpen: 0,
      last: -Infinity,
      minGap: Infinity,
      short: 0,
    };
    logs[i] = log;
    return startHost(log);
  }),
);
const tell = (message: HostsMessage): void => {
  process.send?.(message);
};
tell({ ports });
process.on('message', (message) => {
  if (message === 'report') tell({ logs, maxOpenAll });
});
// Ends with its parent.
process.on('disconnect', () => process.exit(0));
