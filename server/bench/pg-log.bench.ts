/**
 * The PostgreSQL log benchmark (issue 28, point 1): two repositories on one schema, in two processes, as
 * two server instances would be.
 *
 * - the writer process runs `--writers` loops (default 8), each putting a small config of its own name
 *   again and again for `--seconds` (default 10): committed writes per second;
 * - this process follows the log as the change feed does (a wake-up from `watch`, then a read of the log
 *   after its position) and notes when each write's id appears: the delay from the writer's commit
 *   (its `put` resolved) to the other instance's feed seeing it, p50 / p99 / max.
 *
 * Both processes run on one machine, so their clocks are one clock. The script reads the log with
 * `readLog` when the repository has it, else with `changesSince` (the method before it), so the same file
 * measures a branch and the release before it.
 *
 * Run: `node --import tsx server/bench/pg-log.bench.ts [--writers 8] [--seconds 10]`
 * (`TEST_POSTGRES_URL` names the database; default `postgres://postgres@127.0.0.1:5432/test`).
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import type { ConfigRepository } from '../src/storage/config-repository.js';
import { createPostgresConfigRepository } from '../src/storage/postgres/postgres-config-repository.js';

const args = process.argv.slice(2);
const option = (name: string, fallback: number): number => {
  const at = args.indexOf(`--${name}`);
  return at < 0 ? fallback : Number(args[at + 1]);
};
const PG_URL =
  process.env['TEST_POSTGRES_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test';
const WRITERS = option('writers', 8);
const SECONDS = option('seconds', 10);
const clock = (): number => performance.timeOrigin + performance.now();

/** One page of the log after `after`: ids only (either method of the repository). */
async function idsAfter(
  repo: ConfigRepository,
  after: number,
): Promise<number[]> {
  const reader = repo as unknown as {
    readLog?: (page: { after: number; limit: number }) => Promise<Page>;
    changesSince?: (after: number, limit: number) => Promise<Page>;
  };
  type Page =
    { reset: false; changes: readonly { id: number }[] } | { reset: true };
  const page =
    reader.readLog !== undefined
      ? await reader.readLog({ after, limit: 1000 })
      : await (reader.changesSince?.(after, 1000) ??
          Promise.reject(new Error('no log read')));
  if (page.reset) throw new Error('the log asked for a reset');
  return page.changes.map((c) => c.id);
}

const open = (schema: string): Promise<ConfigRepository> =>
  createPostgresConfigRepository({
    connectionString: PG_URL,
    schema,
    maxConnections: WRITERS + 2,
  });

/** The writer process: `WRITERS` loops of puts; prints each commit's id and time, as JSON. */
async function writer(schema: string): Promise<void> {
  const repo = await open(schema);
  const commits: [number, number][] = [];
  const started = clock();
  const until = started + SECONDS * 1000;
  await Promise.all(
    Array.from({ length: WRITERS }, async (_, w) => {
      for (let i = 0; clock() < until; i++) {
        const result = await repo.put(
          `bench-${w}`,
          `{"allLinks":{"a":{"url":"https://example.com/${w}/${i}"}}}`,
        );
        if (result.ok) commits.push([result.version, clock()]);
      }
    }),
  );
  const seconds = (clock() - started) / 1000;
  await repo.close();
  process.stdout.write(JSON.stringify({ seconds, commits }));
}

/** This process: follows the log of `schema` while the writer runs, then reports. */
async function reader(): Promise<void> {
  const schema = `lc_bench_log_${randomBytes(4).toString('hex')}`;
  const repo = await open(schema);
  const seen = new Map<number, number>();
  let position = await repo.head();
  let reading = false;
  let again = false;
  const drain = async (): Promise<void> => {
    if (reading) {
      again = true;
      return;
    }
    reading = true;
    try {
      do {
        again = false;
        for (;;) {
          const ids = await idsAfter(repo, position);
          const now = clock();
          for (const id of ids) seen.set(id, now);
          position = ids.at(-1) ?? position;
          if (ids.length < 1000) break;
        }
      } while (again);
    } finally {
      reading = false;
    }
  };
  const stop = repo.watch(() => void drain());
  // The LISTEN connection is up once the first wake-up (at connection) came.
  await new Promise((resolve) => setTimeout(resolve, 500));
  const child = spawn(
    process.execPath,
    [
      ...process.execArgv,
      fileURLToPath(import.meta.url),
      '--writer',
      schema,
      ...args,
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  await new Promise((resolve) => child.on('exit', resolve));
  const { seconds, commits } = JSON.parse(out) as {
    seconds: number;
    commits: [number, number][];
  };
  // Give the last notifications a moment, then read what is left.
  await new Promise((resolve) => setTimeout(resolve, 1000));
  await drain();
  stop();
  const delays = commits
    .map(([id, at]) => (seen.get(id) ?? Number.NaN) - at)
    .filter((d) => Number.isFinite(d))
    .sort((a, b) => a - b);
  const pick = (q: number): string =>
    (
      delays[Math.min(delays.length - 1, Math.floor(q * delays.length))] ?? 0
    ).toFixed(1);
  console.log(
    JSON.stringify({
      writers: WRITERS,
      seconds: Number(seconds.toFixed(2)),
      committed: commits.length,
      writesPerSecond: Math.round(commits.length / seconds),
      feedSaw: delays.length,
      delayMs: { p50: pick(0.5), p99: pick(0.99), max: pick(1) },
    }),
  );
  await repo.close();
  const client = new pg.Client({ connectionString: PG_URL });
  await client.connect();
  await client.query(`DROP SCHEMA "${schema}" CASCADE`);
  await client.end();
}

const writerAt = args.indexOf('--writer');
if (writerAt >= 0) await writer(args[writerAt + 1] ?? '');
else await reader();
