/**
 * The link checker's benchmark line (issue 31): 10,000 links over 50 hosts, checked by the server's own
 * checker while clients read the API. Each host is a test server on 127.0.0.1 (its own port: politeness
 * counts a host by name and port), allowed by OUTBOUND_ALLOW. Measured: how long the round takes against
 * what the limits allow (1 request a second per host: 200 s for 200 links a host), the politeness as the
 * hosts saw it, and the p50/p99 of `GET /configs/:name` before and during the round.
 *
 * `npm run bench:links` (about four minutes; `--links N --hosts N` for other sizes).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createLogger } from '../src/logger.js';
import { OutboundAllowList } from '../src/outbound/index.js';
import { startServer } from '../src/start-server.js';
import { startLoopbackServer } from '../test/loopback-server.js';
import type { LoopbackServer } from '../test/loopback-server.js';

const { values } = parseArgs({
  options: {
    links: { type: 'string', default: '10000' },
    hosts: { type: 'string', default: '50' },
    readers: { type: 'string', default: '8' },
    baseline: { type: 'string', default: '20' },
  },
});
const LINKS = Number(values.links);
const HOSTS = Number(values.hosts);
const READERS = Number(values.readers);
const BASELINE_S = Number(values.baseline);
const LINKS_PER_CONFIG = 100;

/** What one host saw: requests, the most open at once, the smallest gap between two starts. */
interface HostLog {
  count: number;
  open: number;
  maxOpen: number;
  last: number;
  minGap: number;
}

const logs: HostLog[] = [];
let openAll = 0;
let maxOpenAll = 0;

async function startHosts(): Promise<LoopbackServer[]> {
  return Promise.all(
    Array.from({ length: HOSTS }, (_, i) => {
      const log: HostLog = {
        count: 0,
        open: 0,
        maxOpen: 0,
        last: -Infinity,
        minGap: Infinity,
      };
      logs[i] = log;
      return startLoopbackServer((_request, response) => {
        const now = performance.now();
        log.minGap = Math.min(log.minGap, now - log.last);
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
        // A site that takes a little time to answer.
        setTimeout(() => response.writeHead(200).end(), 20);
      });
    }),
  );
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
      hosts.map((h) => `127.0.0.1:${h.port}`),
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
      const host = hosts[n % HOSTS] as LoopbackServer;
      allLinks[`l${l}`] = {
        url: `${host.origin}/page/${n}`,
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

  const during = readLoad(server.url, configs);
  const started = performance.now();
  await server.services.linkHealth.checker.runDue();
  const seconds = (performance.now() - started) / 1000;
  const reads = await during.stop();

  const perHost = Math.ceil(LINKS / HOSTS) + 1; // its links and robots.txt
  const counts = await server.services.linkHealth.checker.stats.checks;
  console.log(
    `round: ${seconds.toFixed(1)} s for ${LINKS} links (the limits allow ${perHost - 1} s: ${perHost} requests a host at 1/s); checks ${JSON.stringify(Object.fromEntries(counts))}`,
  );
  console.log(
    `politeness as the hosts saw it: at most ${Math.max(...logs.map((l) => l.maxOpen))} open per host, smallest gap ${Math.min(...logs.map((l) => l.minGap)).toFixed(0)} ms, at most ${maxOpenAll} open over all hosts; requests per host ${Math.min(...logs.map((l) => l.count))}–${Math.max(...logs.map((l) => l.count))}`,
  );
  console.log(`GET /configs/:name before: ${summary(before)}`);
  console.log(`GET /configs/:name during: ${summary(reads)}`);
  await server.close(0);
  await Promise.all(hosts.map((h) => h.close()));
  rmSync(dir, { recursive: true, force: true });
}

await main();
