/**
 * The link checker's benchmark line (issue 31): 10,000 links over 50 hosts, checked by the server's own
 * checker while clients read the API. Each host is a test server on 127.0.0.1 (its own port: politeness
 * counts a host by name and port), allowed by OUTBOUND_ALLOW; the hosts run in a process of their own
 * (`link-check-hosts.ts`), as real sites would. Measured: how long the round takes against what the limits
 * allow (1 request a second per host: 200 s for 200 links a host), the politeness as the hosts saw it
 * (arrivals, on their own event loop) and as the checker sent it (the moment undici writes each request,
 * from its `undici:client:sendHeaders` channel), and the p50/p99 of `GET /configs/:name` before and
 * during the round.
 *
 * `npm run bench:links` (about four minutes; `--links N --hosts N` for other sizes, `--hosts-nice=-10` to
 * give the hosts' process a CPU first, as a site on its own machine would have).
 */
import { fork } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { subscribe } from 'node:diagnostics_channel';
import { mkdtempSync, rmSync } from 'node:fs';
import { setPriority, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { POLITE, SPACING_MARGIN_MS } from '../src/link-health/host-pacer.js';
import { createLogger } from '../src/logger.js';
import { OutboundAllowList } from '../src/outbound/index.js';
import { startServer } from '../src/start-server.js';
import type { HostLog, HostsMessage } from './link-check-hosts.js';

const { values } = parseArgs({
  options: {
    links: { type: 'string', default: '10000' },
    hosts: { type: 'string', default: '50' },
    readers: { type: 'string', default: '8' },
    baseline: { type: 'string', default: '20' },
    // The hosts' process priority (`os.setPriority`, -20…19; below 0 needs root): a site on a machine of
    // its own is not kept waiting for a CPU by the checker and the readers.
    'hosts-nice': { type: 'string', default: '0' },
  },
});
const LINKS = Number(values.links);
const HOSTS = Number(values.hosts);
const READERS = Number(values.readers);
const BASELINE_S = Number(values.baseline);
const HOSTS_NICE = Number(values['hosts-nice']);
const LINKS_PER_CONFIG = 100;

/** The hosts, in their own process: their ports, and what they saw when asked. */
interface Hosts {
  readonly ports: number[];
  report(): Promise<{ logs: HostLog[]; maxOpenAll: number }>;
  close(): void;
}

async function startHosts(): Promise<Hosts> {
  const child: ChildProcess = fork(
    new URL('./link-check-hosts.ts', import.meta.url),
    [String(HOSTS)],
    {
      execArgv: ['--import', 'tsx'],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    },
  );
  if (HOSTS_NICE !== 0 && child.pid !== undefined)
    setPriority(child.pid, HOSTS_NICE);
  const next = (): Promise<HostsMessage> =>
    new Promise((resolve) =>
      child.once('message', (m) => resolve(m as HostsMessage)),
    );
  const first = await next();
  if (!('ports' in first)) throw new Error('the hosts did not start');
  return {
    ports: first.ports,
    report: async () => {
      const answer = next();
      child.send('report');
      const message = await answer;
      if (!('logs' in message)) throw new Error('the hosts did not report');
      return message;
    },
    close: () => child.disconnect(),
  };
}

/** The checker's side: per origin, the smallest gap between two requests written to their sockets. */
function watchSends(): Map<string, { last: number; minGap: number }> {
  const sends = new Map<string, { last: number; minGap: number }>();
  subscribe('undici:client:sendHeaders', (message) => {
    // Published just before the write; read the time after it, as the checker does.
    queueMicrotask(() => sent(message));
  });
  const sent = (message: unknown): void => {
    const now = performance.now();
    const { request } = message as { request: { origin?: string | URL } };
    const origin = String(request.origin);
    const seen = sends.get(origin) ?? { last: -Infinity, minGap: Infinity };
    seen.minGap = Math.min(seen.minGap, now - seen.last);
    seen.last = now;
    sends.set(origin, seen);
  };
  return sends;
}

/** Readers asking `GET /configs/:name` in a loop until `stop()`; their latencies in ms. */
function readLoad(
  base: string,
  configs: number,
): { stop: () => Promise<number[]> } {
  const latencies: number[] = [];
  let running = true;
  const loops = Array.from({ length: READERS }, async (_, r) => {
    let i = r;
    while (running) {
      const started = performance.now();
      const response = await fetch(`${base}/configs/links-${i % configs}`);
      await response.arrayBuffer();
      latencies.push(performance.now() - started);
      i += READERS;
    }
  });
  return {
    stop: async () => {
      running = false;
      await Promise.all(loops);
      return latencies;
    },
  };
}

function percentile(sorted: readonly number[], p: number): number {
  return (
    sorted[
      Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))
    ] ?? NaN
  );
}

function summary(latencies: number[]): string {
  const sorted = [...latencies].sort((a, b) => a - b);
  return `${sorted.length} reads, p50 ${percentile(sorted, 50).toFixed(2)} ms, p99 ${percentile(sorted, 99).toFixed(2)} ms`;
}

async function main(): Promise<void> {
  const hosts = await startHosts();
  const dir = mkdtempSync(join(tmpdir(), 'linkconfig-bench-links-'));
  const server = await startServer({
    databaseUrl: `sqlite:${join(dir, 'links.db')}`,
    logger: createLogger('warn'),
    port: 0,
    host: '127.0.0.1',
    seed: 'none',
    appDir: '/nonexistent',
    rateLimit: false,
    accessLog: false,
    outboundAllow: new OutboundAllowList(
      hosts.ports.map((port) => `127.0.0.1:${port}`),
    ),
  });
  const configs = Math.ceil(LINKS / LINKS_PER_CONFIG);
  for (let c = 0; c < configs; c++) {
    const allLinks: Record<string, { url: string; label: string }> = {};
    for (
      let l = 0;
      l < LINKS_PER_CONFIG && c * LINKS_PER_CONFIG + l < LINKS;
      l++
    ) {
      const n = c * LINKS_PER_CONFIG + l;
      const port = hosts.ports[n % HOSTS] as number;
      allLinks[`l${l}`] = {
        url: `http://127.0.0.1:${port}/page/${n}`,
        label: `link ${n}`,
      };
    }
    await server.services.configs.put(`links-${c}`, { allLinks });
  }
  console.log(
    `${LINKS} links in ${configs} configs over ${HOSTS} hosts; ${READERS} readers`,
  );

  const baseline = readLoad(server.url, configs);
  await new Promise((resolve) => setTimeout(resolve, BASELINE_S * 1000));
  const before = await baseline.stop();

  const sends = watchSends();
  const during = readLoad(server.url, configs);
  const started = performance.now();
  await server.services.linkHealth.checker.runDue();
  const seconds = (performance.now() - started) / 1000;
  const reads = await during.stop();

  const perHost = Math.ceil(LINKS / HOSTS) + 1; // its links and robots.txt
  const GAP_MS = POLITE.spacingMs + SPACING_MARGIN_MS;
  const counts = await server.services.linkHealth.checker.stats.checks;
  console.log(
    `round: ${seconds.toFixed(1)} s for ${LINKS} links (the limits allow ${((perHost - 1) * GAP_MS) / 1000} s: ${perHost} requests a host, ${GAP_MS} ms apart); checks ${JSON.stringify(Object.fromEntries(counts))}`,
  );
  const { logs, maxOpenAll } = await hosts.report();
  const hostSends = [...sends.entries()].filter(([origin]) =>
    hosts.ports.some((port) => origin === `http://127.0.0.1:${port}`),
  );
  console.log(
    `politeness as the hosts saw it: at most ${Math.max(...logs.map((l) => l.maxOpen))} open per host, smallest gap ${Math.min(...logs.map((l) => l.minGap)).toFixed(1)} ms (${logs.reduce((n, l) => n + l.short, 0)} gaps under 1 s), at most ${maxOpenAll} open over all hosts; requests per host ${Math.min(...logs.map((l) => l.count))}–${Math.max(...logs.map((l) => l.count))}`,
  );
  console.log(
    `as the checker sent it: smallest gap between two requests written to one host ${Math.min(...hostSends.map(([, s]) => s.minGap)).toFixed(1)} ms (${hostSends.length} hosts)`,
  );
  console.log(`GET /configs/:name before: ${summary(before)}`);
  console.log(`GET /configs/:name during: ${summary(reads)}`);
  await server.close(0);
  hosts.close();
  rmSync(dir, { recursive: true, force: true });
}

await main();
