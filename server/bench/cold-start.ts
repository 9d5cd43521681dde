/**
 * `--cold`: how fast a restarted server answers with many configs stored (issue 23, item 5). Our server
 * is loaded with `--cold-configs` × `--cold-links` (5,000 × 50 by default) through the REST API and
 * stopped; a new process is started on the same database, and the benchmark times its start (until
 * `/healthz` answers), its first `/search?q=`, its first `POST /query` on one config, and a second of
 * each for comparison, and reads its RSS; then a search that matches nothing, which reads every config.
 * The targets: the first search within 300 ms, the first query within 50 ms. With `--cold-db FILE` the loaded database is kept in FILE, and a later run that
 * finds FILE skips the load (the dataset is then whatever FILE holds; the report says how many configs).
 */
import { existsSync, rmSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { BenchRun } from './run/bench-run.js';
import { mib } from './run/bench-run.js';
import { configName } from './dataset.js';
import { uploadDataset } from './upload.js';

/** What the cold start measured, ms (RSS in KiB). */
export interface ColdResults {
  configs: number;
  links: number;
  startMs: number;
  firstSearchMs: number;
  secondSearchMs: number;
  firstQueryMs: number;
  secondQueryMs: number;
  rssKiB: number | null;
  /** A search that matches nothing (so it reads every config), then the same words again. */
  noMatchMs: number;
  noMatchAgainMs: number;
  /** RSS after those (every config's search index built, as far as the caches hold them). */
  noMatchRssKiB: number | null;
}

async function timed(url: string, init?: RequestInit): Promise<number> {
  const started = performance.now();
  const res = await fetch(url, init);
  await res.arrayBuffer();
  if (!res.ok) throw new Error(`${url} answered ${res.status}`);
  return performance.now() - started;
}

const query = (name: string, expression: string): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ expression, configName: name }),
});

/** Loads, restarts and times the first answers. */
export async function runCold(run: BenchRun): Promise<ColdResults> {
  const { coldConfigs, coldLinks: links, seed, coldDb } = run.options;
  const dir = await mkdtemp(join(tmpdir(), 'linkconfig-cold-'));
  const file = coldDb === null ? join(dir, 'cold.db') : resolve(coldDb);
  const env = { DATABASE_URL: `sqlite:${file}` };
  let configs = coldConfigs;
  try {
    if (coldDb !== null && existsSync(file)) {
      run.progress(`phase cold: reusing the database in ${file}`);
    } else {
      run.progress(`phase cold: loading ${configs} configs × ${links} links`);
      const loader = await run.startOurs(env, 'cold-load');
      await uploadDataset(loader.baseUrl, {
        configs,
        links,
        seed,
        parallel: 8,
        onProgress: (done) => {
          if (done % 500 === 0) run.progress(`  loaded ${done}/${configs}`);
        },
      });
      await loader.stop();
    }
    run.progress('  restarting on the database');
    const started = performance.now();
    const server = await run.startOurs(env, 'cold');
    const startMs = performance.now() - started;
    const base = server.baseUrl;
    const firstSearchMs = await timed(`${base}/search?q=guide`);
    const secondSearchMs = await timed(`${base}/search?q=travel`);
    const name = configName(Math.floor(configs / 2));
    const firstQueryMs = await timed(`${base}/query`, query(name, '.nyc | l1'));
    const secondQueryMs = await timed(
      `${base}/query`,
      query(configName(Math.floor(configs / 3)), '.nyc | l2'),
    );
    const rssKiB = await server.rssKiB();
    // A search no link matches reads and indexes every config, on the first call after a start.
    const noMatchMs = await timed(`${base}/search?q=qqzxw`);
    const noMatchAgainMs = await timed(`${base}/search?q=zxwqq`);
    const noMatchRssKiB = await server.rssKiB();
    // Counted after the timings (a reused database may hold another number of configs).
    const names = (await (await fetch(`${base}/configs`)).json()) as unknown[];
    configs = names.length;
    await server.stop();
    return {
      configs,
      links,
      startMs,
      firstSearchMs,
      secondSearchMs,
      firstQueryMs,
      secondQueryMs,
      rssKiB,
      noMatchMs,
      noMatchAgainMs,
      noMatchRssKiB,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const ms = (n: number) => `${n.toFixed(0)} ms`;

/** The report's lines. */
export function coldReport(r: ColdResults): string {
  return [
    `${r.configs} configs × ${r.links} links, server restarted on the database:`,
    '',
    `- start until /healthz answers: ${ms(r.startMs)}`,
    `- first /search?q=: ${ms(r.firstSearchMs)} (target ≤ 300 ms: ${r.firstSearchMs <= 300 ? 'yes' : 'NO'}); second: ${ms(r.secondSearchMs)}`,
    `- first POST /query on one config: ${ms(r.firstQueryMs)} (target ≤ 50 ms: ${r.firstQueryMs <= 50 ? 'yes' : 'NO'}); on a second config: ${ms(r.secondQueryMs)}`,
    `- RSS after these: ${mib(r.rssKiB)}`,
    `- then a /search?q= that matches nothing (every config read and indexed): ${ms(r.noMatchMs)}; another one: ${ms(r.noMatchAgainMs)}; RSS after: ${mib(r.noMatchRssKiB)}`,
  ].join('\n');
}
