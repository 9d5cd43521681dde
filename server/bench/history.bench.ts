/**
 * The history benchmark (issue 18): what revisions cost to keep, to read, and to write.
 *
 * - bytes per revision: a 500-link config (~120 KB) edited 1,000 times, one link per edit, on SQLite
 *   (file size after VACUUM with and without the revisions table) and PostgreSQL
 *   (`pg_total_relation_size` of the revisions table, indexes and TOAST included);
 * - reading one random revision among 10,000 (median, p95, max over 200 reads);
 * - a PUT with history against a PUT without, in the same run on SQLite (`recordHistory: false`, an option
 *   for this comparison only), through `ConfigService.put` as a PUT request runs it, alternating rounds.
 *
 * - a page of history and one revision or diff of a large config, with the longest event-loop gap
 *   (`history-page.ts`).
 *
 * Run: `npm run bench:history` (`-- --no-postgres` to skip PostgreSQL; `--reads N` revisions for the
 * read test, default 10,000; `--only sqlite|put|postgres|page|page-postgres|huge` for one part).
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { createServices } from '../src/services/services.js';
import type { ConfigRepository } from '../src/storage/config-repository.js';
import { createPostgresConfigRepository } from '../src/storage/postgres/postgres-config-repository.js';
import { createSqliteConfigRepository } from '../src/storage/sqlite/sqlite-config-repository.js';
import { generateConfig } from './dataset.js';
import { hugeFigures, pageFigures } from './history-page.js';

const args = process.argv.slice(2);
const withPostgres = !args.includes('--no-postgres');
const onlyIndex = args.indexOf('--only');
/** `--only sqlite|put|postgres|page|page-postgres|huge`: run that part alone. */
const only = onlyIndex < 0 ? undefined : args[onlyIndex + 1];
const runs = (part: string): boolean => only === undefined || only === part;
const readsIndex = args.indexOf('--reads');
const READ_REVISIONS = readsIndex < 0 ? 10_000 : Number(args[readsIndex + 1]);
const PG_URL =
  process.env['TEST_POSTGRES_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test';

const base = generateConfig({ links: 500, seed: 18 });
/** Edit `i`: link `l(i·37 mod 500)` gets a new label. */
const edit = (i: number): string => {
  const id = `l${(i * 37) % 500}`;
  const link = base.allLinks[id];
  if (link !== undefined) link.label = `edited ${i}`;
  return JSON.stringify(base);
};
const configBytes = Buffer.byteLength(JSON.stringify(base));

async function writeEdits(
  repo: ConfigRepository,
  count: number,
  concurrent = true,
): Promise<void> {
  const name = 'menu';
  if (!concurrent) {
    // One at a time, so revisions follow the edits in order (a pool may commit concurrent writes of one
    // name in another order, and then a revision differs from the one before in two places).
    for (let i = 0; i < count; i++) await repo.put(name, edit(i));
    return;
  }
  // In groups of 50 concurrent writes (one name: SQLite commits each group at once, in order).
  for (let i = 0; i < count; i += 50) {
    const group = [];
    for (let j = i; j < Math.min(count, i + 50); j++) {
      group.push(repo.put(name, edit(j)));
    }
    await Promise.all(group);
  }
}

const fmt = (n: number, digits = 1) => n.toFixed(digits);

async function readTimes(repo: ConfigRepository, name: string, revs: number) {
  const times: number[] = [];
  const cpuTimes: number[] = [];
  for (let i = 0; i < 200; i++) {
    const rev = 1 + Math.floor(Math.random() * revs);
    const started = performance.now();
    const cpuStarted = process.cpuUsage();
    const [revision] = await repo.revisions(name, { from: rev, to: rev });
    times.push(performance.now() - started);
    const cpu = process.cpuUsage(cpuStarted);
    cpuTimes.push((cpu.user + cpu.system) / 1000);
    if (revision?.json === null || revision === undefined) {
      throw new Error(`revision ${rev} unreadable`);
    }
  }
  const at = (list: number[], q: number) =>
    list.sort((a, b) => a - b)[
      Math.min(list.length - 1, Math.floor(q * list.length))
    ] ?? 0;
  return (
    `median ${fmt(at(times, 0.5), 2)} ms, p95 ${fmt(at(times, 0.95), 2)} ms, max ${fmt(at(times, 1), 2)} ms ` +
    `(CPU time of this process: median ${fmt(at(cpuTimes, 0.5), 2)} ms, p95 ${fmt(at(cpuTimes, 0.95), 2)} ms)`
  );
}

function sqliteSize(path: string): number {
  const db = new Database(path);
  db.exec('VACUUM');
  db.close();
  return statSync(path).size;
}

async function sqliteFigures(dir: string): Promise<void> {
  const path = join(dir, 'size.db');
  const repo = createSqliteConfigRepository({ path });
  await repo.put('menu', edit(-1));
  await writeEdits(repo, 1000);
  await repo.close();
  const withHistory = sqliteSize(path);
  const db = new Database(path);
  db.exec('DELETE FROM revisions');
  db.close();
  const history = withHistory - sqliteSize(path);
  console.log(
    `SQLite: 1,001 revisions of a ${fmt(configBytes / 1024)} KB config take ${fmt(history / 1024)} KB ` +
      `(${fmt(history / configBytes, 2)}× the config; ${fmt(history / 1001, 0)} bytes per revision)`,
  );
  const reads = createSqliteConfigRepository({ path: join(dir, 'reads.db') });
  await reads.put('menu', edit(-1));
  await writeEdits(reads, READ_REVISIONS - 1);
  console.log(
    `SQLite: one random revision of ${READ_REVISIONS}: ${await readTimes(reads, 'menu', READ_REVISIONS)}`,
  );
  await reads.close();
}

async function postgresFigures(): Promise<void> {
  const schema = `lc_bench_history_${process.pid}`;
  const open = () =>
    createPostgresConfigRepository({
      connectionString: PG_URL,
      schema,
      maxConnections: 4,
    });
  const admin = new pg.Client({ connectionString: PG_URL });
  await admin.connect();
  try {
    const repo = await open();
    const table = `'"${schema}".linkconfig_revisions'`;
    const parts = async () => {
      await admin.query(`VACUUM ANALYZE "${schema}".linkconfig_revisions`);
      const { rows } = await admin.query<Record<string, string>>(
        `SELECT pg_total_relation_size(${table}) AS total,
           pg_relation_size(${table}, 'main') AS heap,
           pg_indexes_size(${table}) AS indexes,
           pg_total_relation_size(reltoastrelid) AS toast
         FROM pg_class WHERE oid = ${table}::regclass`,
      );
      const row = rows[0] ?? {};
      const n = (key: string) => Number(row[key] ?? 0);
      const [total, heap, indexes, toast] = [
        n('total'),
        n('heap'),
        n('indexes'),
        n('toast'),
      ];
      return {
        total,
        heap,
        indexes,
        toast,
        maps: total - heap - indexes - toast,
      };
    };
    await repo.put('menu', edit(-1));
    // What the empty table, its indexes, TOAST and maps cost once, whatever the history holds.
    const before = await parts();
    const first = before.total;
    await writeEdits(repo, 1000, false);
    const after = await parts();
    const history = after.total;
    const added = history - first;
    const grew = (key: keyof typeof after) =>
      `${key} ${fmt((after[key] - before[key]) / 1024)} KB`;
    const keyframes = await admin.query<{ n: string; bytes: string }>(
      `SELECT count(*) AS n, sum(length(data)) AS bytes FROM "${schema}".linkconfig_revisions
       WHERE base = rev AND rev > 1`,
    );
    console.log(
      `PostgreSQL: where the 1,000 edits' bytes go: ${grew('heap')}, ${grew('toast')}, ${grew('indexes')}, ` +
        `${grew('maps')}; ${keyframes.rows[0]?.n ?? 0} keyframes of ${fmt(Number(keyframes.rows[0]?.bytes ?? 0) / 1024)} KB`,
    );
    console.log(
      `PostgreSQL: 1,001 revisions take ${fmt(history / 1024)} KB (table, indexes, TOAST, maps; ` +
        `${fmt(first / 1024)} KB of it with the first revision alone); the 1,000 edits add ` +
        `${fmt(added / 1024)} KB (${fmt(added / configBytes, 2)}× the config; ${fmt(added / 1000, 0)} bytes per revision)`,
    );
    await writeEdits(repo, READ_REVISIONS - 1001, false);
    console.log(
      `PostgreSQL: one random revision of ${READ_REVISIONS}: ${await readTimes(repo, 'menu', READ_REVISIONS)}`,
    );
    await repo.close();
  } finally {
    await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await admin.end();
  }
}

/**
 * PUT through the service (validation and storage, as a PUT request) with and without history: two
 * databases side by side, each edit written to both, the order alternating, so drift of a shared machine
 * falls on both alike.
 */
async function putComparison(dir: string): Promise<void> {
  const count = 600;
  const bodies = Array.from(
    { length: count },
    (_, i) => JSON.parse(edit(i)) as unknown,
  );
  const open = (mode: 'on' | 'off') => {
    const repository = createSqliteConfigRepository({
      path: join(dir, `put-${mode}.db`),
      recordHistory: mode === 'on',
    });
    return { repository, services: createServices({ repository }) };
  };
  const sides = { on: open('on'), off: open('off') };
  const total = { on: 0, off: 0 };
  // CPU time of the process (user + system, µs): less swayed than wall time by other work on the machine.
  const cpu = { on: 0, off: 0 };
  for (const side of Object.values(sides))
    await side.services.configs.put('menu', bodies[0]);
  for (let i = 0; i < count; i++) {
    for (const mode of i % 2 === 0
      ? (['on', 'off'] as const)
      : (['off', 'on'] as const)) {
      const started = performance.now();
      const cpuStarted = process.cpuUsage();
      await sides[mode].services.configs.put('menu', bodies[i]);
      // The first 100 warm up.
      if (i >= 100) {
        total[mode] += performance.now() - started;
        const used = process.cpuUsage(cpuStarted);
        cpu[mode] += used.user + used.system;
      }
    }
  }
  for (const side of Object.values(sides)) await side.repository.close();
  const per = (ms: number) => ms / (count - 100);
  console.log(
    `SQLite PUT of a ${fmt(configBytes / 1024)} KB config (service, one-link edits, ${count - 100} each): ` +
      `with history ${fmt(per(total.on), 2)} ms, without ${fmt(per(total.off), 2)} ms ` +
      `(${fmt((total.on / total.off - 1) * 100)} %); CPU time with ${fmt(per(cpu.on) / 1000, 2)} ms, ` +
      `without ${fmt(per(cpu.off) / 1000, 2)} ms (${fmt((cpu.on / cpu.off - 1) * 100)} %)`,
  );
}

const dir = mkdtempSync(join(tmpdir(), 'linkconfig-history-bench-'));
try {
  if (runs('sqlite')) await sqliteFigures(dir);
  if (runs('put')) await putComparison(dir);
  if (withPostgres && runs('postgres')) await postgresFigures();
  if (runs('page')) await pageFigures(dir);
  if (withPostgres && runs('page-postgres')) {
    const schema = `lc_bench_history_page_${process.pid}`;
    try {
      await pageFigures(dir, {
        database: 'PostgreSQL',
        open: () =>
          createPostgresConfigRepository({
            connectionString: PG_URL,
            schema,
            maxConnections: 4,
          }),
      });
    } finally {
      const admin = new pg.Client({ connectionString: PG_URL });
      await admin.connect();
      await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await admin.end();
    }
  }
  if (runs('huge')) await hugeFigures(dir);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
