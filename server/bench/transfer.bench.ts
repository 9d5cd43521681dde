/**
 * Import, backup and restore at the sizes issue 21 names (docs/import-export.md#speed), measured end to
 * end with the built `linkconfig` command in a child process (its peak RSS included):
 * - importing a 10,000-bookmark bookmark file (~5 MB) into a running server (goal ≤ 5 s, RSS ≤ 200 MB);
 * - backup, and restore into SQLite and PostgreSQL, of 1,000 configs × 500 links with 5 revisions each
 *   (goal ≤ 60 s each).
 * Run after `tsc -b`: `npm run bench:transfer` (`--quick` for a tenth of the sizes, `--no-postgres`).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { createLogger } from '../src/logger.js';
import { startServer } from '../src/start-server.js';
import { openRepository } from '../src/storage/open-repository.js';
import { mulberry32, randomInt } from './prng.js';
import type { Random } from './prng.js';
import { HOSTS, TAGS, WORDS } from './vocabulary.js';

const args = new Set(process.argv.slice(2));
const quick = args.has('--quick');
const postgresUrl =
  process.env['TEST_POSTGRES_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test';
const CLI = fileURLToPath(new URL('../bin/linkconfig.js', import.meta.url));
/** Prints the child's peak RSS when it exits. */
const RSS_HOOK = `data:text/javascript,process.on('exit',()=>{const u=process.resourceUsage();process.stderr.write('maxrss='+u.maxRSS+' cpu='+(u.userCPUTime+u.systemCPUTime)+'\\n')})`;
/** `--cpu-prof <dir>`: the children write CPU profiles there. */
const profileDir = process.argv[process.argv.indexOf('--cpu-prof') + 1];
const PROFILE =
  process.argv.includes('--cpu-prof') && profileDir !== undefined
    ? ['--cpu-prof', '--cpu-prof-dir', profileDir]
    : [];

interface Measured {
  readonly seconds: number;
  readonly rssMb: number;
  /** User and system CPU time of the child, in seconds: what the command costs on an idle machine. */
  readonly cpuSeconds: number;
  readonly code: number;
  readonly stdout: string;
}

/** Runs `linkconfig …` and measures its wall time and peak RSS. */
function linkconfig(argv: string[]): Promise<Measured> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(
      process.execPath,
      ['--import', RSS_HOOK, ...PROFILE, CLI, ...argv],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      const seconds = (performance.now() - started) / 1000;
      const kb = Number(/maxrss=(\d+)/.exec(stderr)?.[1] ?? 0);
      const cpuSeconds = Number(/cpu=(\d+)/.exec(stderr)?.[1] ?? 0) / 1e6;
      if (code !== 0 && code !== 1) {
        reject(new Error(`linkconfig ${argv[0]} exited ${code}: ${stderr}`));
        return;
      }
      resolve({
        seconds,
        rssMb: kb / 1024,
        cpuSeconds,
        code: code ?? 0,
        stdout,
      });
    });
  });
}

const words = (rnd: Random, n: number): string =>
  Array.from(
    { length: n },
    () => WORDS[randomInt(rnd, 0, WORDS.length - 1)],
  ).join(' ');
const escape = (text: string): string =>
  text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('"', '&quot;');

/** A Netscape bookmark file of `count` bookmarks in 20 folders, about 500 bytes each. */
function bookmarkFile(count: number, rnd: Random): string {
  const lines = [
    '<!DOCTYPE NETSCAPE-Bookmark-file-1>',
    '<TITLE>Bookmarks</TITLE>',
    '<H1>Bookmarks</H1>',
    '<DL><p>',
  ];
  const perFolder = Math.ceil(count / 20);
  for (let i = 0; i < count; i++) {
    if (i % perFolder === 0) {
      if (i > 0) lines.push('    </DL><p>');
      lines.push(
        `    <DT><H3 ADD_DATE="1700000000">${escape(words(rnd, 2))}</H3>`,
        '    <DL><p>',
      );
    }
    const host = HOSTS[randomInt(rnd, 0, HOSTS.length - 1)] ?? 'example.com';
    const tags = Array.from(
      { length: randomInt(rnd, 1, 4) },
      () => TAGS[randomInt(rnd, 0, TAGS.length - 1)],
    );
    lines.push(
      `        <DT><A HREF="https://${host}/${words(rnd, 4).replaceAll(' ', '/')}?id=${i}" ADD_DATE="${1600000000 + i}" LAST_MODIFIED="${1600000000 + i}" TAGS="${tags.join(',')}">${escape(words(rnd, 5))}</A>`,
      `        <DD>${escape(words(rnd, 40))}`,
    );
  }
  lines.push('    </DL><p>', '</DL><p>', '');
  return lines.join('\n');
}

/** A config of `links` links, ~150 bytes each. */
function configJson(links: number, rnd: Random, n: number): string {
  const allLinks: Record<string, unknown> = {};
  for (let i = 0; i < links; i++) {
    allLinks[`l${n}_${i}`] = {
      url: `https://${HOSTS[randomInt(rnd, 0, HOSTS.length - 1)] ?? 'x'}/${i}`,
      label: words(rnd, 4),
      tags: [TAGS[randomInt(rnd, 0, TAGS.length - 1)]],
      description: words(rnd, 6),
    };
  }
  return JSON.stringify({ allLinks });
}

const line = (label: string, m: Measured, goal: string): void => {
  console.log(
    `${label.padEnd(44)} ${m.seconds.toFixed(2).padStart(7)} s  CPU ${m.cpuSeconds.toFixed(2).padStart(6)} s  RSS ${m.rssMb.toFixed(0).padStart(4)} MB   (goal ${goal})`,
  );
};

async function benchImport(dir: string): Promise<void> {
  const count = quick ? 1000 : 10_000;
  const file = join(dir, 'bookmarks.html');
  writeFileSync(file, bookmarkFile(count, mulberry32(21)));
  const size = statSync(file).size / 1024 / 1024;
  const server = await startServer({
    databaseUrl: join(dir, 'import.db'),
    logger: createLogger('silent'),
    port: 0,
    host: '127.0.0.1',
    seed: 'none',
    appDir: '/nonexistent',
  });
  try {
    // The server runs in this process: its CPU time during an import is this process's.
    const serverCpu = async (
      run: () => Promise<Measured>,
    ): Promise<Measured> => {
      const before = process.cpuUsage();
      const measured = await run();
      const { user, system } = process.cpuUsage(before);
      console.log(
        `  server CPU during it: ${((user + system) / 1e6).toFixed(2)} s`,
      );
      return measured;
    };
    const argv = ['import', file, '--into', 'bench', '--server', server.url];
    const first = await serverCpu(() => linkconfig(argv));
    line(
      `import ${count} bookmarks (${size.toFixed(1)} MB), new config`,
      first,
      '≤ 5 s, ≤ 200 MB',
    );
    console.log(`  ${first.stdout.split('\n')[0] ?? ''}`);
    const again = await serverCpu(() => linkconfig(argv));
    line(`import the same file again (all merged)`, again, '≤ 5 s, ≤ 200 MB');
  } finally {
    await server.close();
  }
}

/** One-link edits of each config after it is made, so the backup holds history. */
const EDITS = 4;

async function benchBackup(dir: string): Promise<void> {
  const configs = quick ? 100 : 1000;
  const links = 500;
  const source = `sqlite:${join(dir, 'source.db')}`;
  const repository = await openRepository(source);
  const rnd = mulberry32(7);
  const started = performance.now();
  const writes: Promise<unknown>[] = [];
  for (let n = 0; n < configs; n++) {
    writes.push(
      repository.put(
        `config-${String(n).padStart(4, '0')}`,
        configJson(links, rnd, n),
      ),
    );
    if (writes.length >= 32) await Promise.all(writes.splice(0));
  }
  await Promise.all(writes);
  // History to back up too: a few one-link edits of each config (deltas, as real editing makes).
  for (let edit = 1; edit <= EDITS; edit++) {
    for (let n = 0; n < configs; n++) {
      const name = `config-${String(n).padStart(4, '0')}`;
      const stored = await repository.get(name);
      if (stored === null) continue;
      writes.push(
        repository.put(
          name,
          stored.json.replace('"label":"', `"label":"edit ${edit} `),
        ),
      );
      if (writes.length >= 32) await Promise.all(writes.splice(0));
    }
  }
  await Promise.all(writes);
  await repository.close();
  console.log(
    `(made ${configs} configs × ${links} links, ${EDITS} one-link edits each, in ${((performance.now() - started) / 1000).toFixed(1)} s)`,
  );
  const file = join(dir, 'backup.jsonl');
  const backup = await linkconfig(['backup', file, '--database-url', source]);
  line(
    `backup ${configs} × ${links} (${(statSync(file).size / 1024 / 1024).toFixed(0)} MB file)`,
    backup,
    '≤ 60 s',
  );
  const sqlite = await linkconfig([
    'restore',
    file,
    '--database-url',
    `sqlite:${join(dir, 'restored.db')}`,
  ]);
  line('restore into an empty SQLite database', sqlite, '≤ 60 s');
  if (args.has('--no-postgres')) return;
  const schema = `lc_bench_transfer_${process.pid}`;
  try {
    const postgres = await linkconfig([
      'restore',
      file,
      '--database-url',
      `${postgresUrl}?schema=${schema}`,
    ]);
    line('restore into an empty PostgreSQL schema', postgres, '≤ 60 s');
  } finally {
    const client = new pg.Client({ connectionString: postgresUrl });
    await client.connect();
    await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await client.end();
  }
}

const dir = mkdtempSync(join(tmpdir(), 'linkconfig-bench-transfer-'));
try {
  if (!args.has('--no-import')) await benchImport(dir);
  if (!args.has('--no-backup')) await benchBackup(dir);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
