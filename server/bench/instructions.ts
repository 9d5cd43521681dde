/**
 * Instructions per request, counted by callgrind: steadier than wall-clock or CPU time on a shared
 * machine. Starts our built server under `valgrind --tool=callgrind` on a copy of a database holding the
 * benchmark dataset (built once, without valgrind), sends `--warmup` requests of a scenario's own
 * sequence, then counts `--windows` windows of `--requests` requests each (counters zeroed, then dumped
 * after each window) and prints the instructions per request of each and their mean, then each window
 * split into the main thread's own work, its garbage collection and background threads (V8's compiler
 * and concurrent GC: the part that varies most between windows). Every request of a
 * run is distinct, as in the benchmark (except `list`, which the benchmark repeats too). Only the
 * server's own instructions are counted, not the kernel's work in its system calls.
 *
 * Usage: node --import tsx server/bench/instructions.ts --scenario list|get|common-regex|query-three|patch|…
 *   [--requests 1000] [--warmup 2000] [--windows 2] [--connections 4] [--work /tmp/linkconfig-ic]
 *   [--configs 50] (the configs stored, 500 links each; the requests name the first 50 at most)
 *   [--server main.js] [--annotate] (keeps the dumps) [--cpu-prof DIR] (a V8 profile instead, no
 *   valgrind) [--strace FILE] (system call counts instead, `strace -c`) [--ceiling] (the same counts
 *   for the bare `node:http` ceiling replaying our first 16 answers of the scenario, as the benchmark's
 *   ceiling column does)
 */
import { execFileSync, spawn } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readFileSync,
  rmSync,
} from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import {
  DEFAULT_SERVER_MAIN,
  OUR_ENV,
  REPO_ROOT,
} from './run/bench-servers.js';
import { ChildServer, freePort } from './child-server.js';
import { buildScenarios } from './scenarios.js';
import type { Scenario } from './scenarios.js';
import { captureFirst } from './capture.js';
import { writeCeilingFile } from './ceiling-file.js';
import { ceilingSequence } from './run/bench-main.js';
import { firstRequests } from './run/bench-captures.js';
import { uploadDataset } from './upload.js';
import { send, sendRange } from './instructions-send.js';

/** The configs the scenarios' requests name (as in the main run). */
const SCOPE = { configs: 50, links: 500 };

const { values } = parseArgs({
  options: {
    scenario: { type: 'string', default: 'list' },
    requests: { type: 'string', default: '1000' },
    warmup: { type: 'string', default: '2000' },
    connections: { type: 'string', default: '4' },
    work: { type: 'string', default: '/tmp/linkconfig-ic' },
    server: { type: 'string', default: DEFAULT_SERVER_MAIN },
    windows: { type: 'string', default: '2' },
    annotate: { type: 'boolean', default: false },
    'cpu-prof': { type: 'string' },
    strace: { type: 'string' },
    ceiling: { type: 'boolean', default: false },
    configs: { type: 'string' },
  },
});
/** The configs stored: `--configs` as a `--scale` point (the requests name the first 50 at most). */
const STORED = { ...SCOPE, configs: Number(values.configs ?? SCOPE.configs) };
const work = values.work;
mkdirSync(work, { recursive: true });

/** The seeded database (the dataset uploaded through the REST API once, then reused). */
async function seedDatabase(): Promise<string> {
  const file = join(work, `seed${values.configs ?? ''}.db`);
  if (existsSync(file)) return file;
  const server = await ChildServer.start({
    label: 'seed',
    args: [values.server],
    cwd: REPO_ROOT,
    env: { ...OUR_ENV, DATABASE_URL: `sqlite:${file}` },
  });
  await uploadDataset(server.baseUrl, STORED);
  await server.stop();
  return file;
}

/** The instruction count (`Ir`) of a callgrind dump. */
function totalOf(file: string): number {
  const text = readFileSync(file, 'utf8');
  const match = /^(?:summary|totals):\s*(\d+)/m.exec(text);
  if (match?.[1] === undefined) throw new Error(`no totals in ${file}`);
  return Number(match[1]);
}

/**
 * A dump's instructions split three ways: background threads (V8's optimizing compiler and concurrent
 * GC work, which vary most between windows), garbage collection on the main thread, and the rest: the
 * main thread's own work, the steadiest figure to compare builds with.
 */
interface Split {
  readonly background: number;
  readonly gc: number;
  readonly rest: number;
}

function splitOf(file: string, total: number): Split {
  const text = execFileSync(
    'callgrind_annotate',
    ['--inclusive=yes', '--threshold=100', file],
    { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 },
  );
  const inclusive = (pattern: RegExp): number => {
    const line = text.split('\n').find((l) => pattern.test(l));
    return line === undefined
      ? 0
      : Number(line.trim().split(' ')[0]?.replace(/,/g, ''));
  };
  const background = inclusive(/pthread_create\.c:start_thread/);
  const gc = inclusive(/Heap::CollectGarbage\(/);
  return { background, gc, rest: total - background - gc };
}

/** Runs callgrind_control; HOST as the server has it (vgdb's pipe names carry it). */
function control(args: string[]): void {
  execFileSync('callgrind_control', args, {
    stdio: 'ignore',
    env: { ...process.env, HOST: '127.0.0.1' },
  });
}

async function waitHealthy(port: number): Promise<void> {
  for (let i = 0; i < 1200; i++) {
    try {
      if ((await send(port, { method: 'GET', path: '/healthz' })) === 200)
        return;
    } catch {
      // not yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error('no /healthz');
}

/** The child processes of `pid` (Linux). */
function childrenOf(pid: number | undefined): number[] {
  const text = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8');
  return text.split(' ').filter(Boolean).map(Number);
}

/** How the server is started: under callgrind (default), with `--cpu-prof`, or under `strace -c`. */
function commandLine(
  out: string,
  profile: string | undefined,
  trace: string | undefined,
): [string, string[]] {
  const main = values.ceiling
    ? ['--import', 'tsx', join(REPO_ROOT, 'server', 'bench', 'ceiling.ts')]
    : [values.server];
  if (profile !== undefined) {
    const prof = ['--cpu-prof', '--cpu-prof-interval', '100'];
    return [process.execPath, [...prof, '--cpu-prof-dir', profile, ...main]];
  }
  if (trace !== undefined) {
    return ['strace', ['-f', '-c', '-o', trace, process.execPath, ...main]];
  }
  const callgrind = ['--tool=callgrind', '--smc-check=all-non-file'];
  return [
    'valgrind',
    [...callgrind, `--callgrind-out-file=${out}`, process.execPath, ...main],
  ];
}

/** Our first answers of the scenario, for the ceiling to replay (captured from our server, unmeasured). */
async function ceilingFile(
  scenario: Scenario,
  seed: string,
  dir: string,
): Promise<string> {
  copyFileSync(seed, join(dir, 'capture.db'));
  const server = await ChildServer.start({
    label: 'capture',
    args: [values.server],
    cwd: REPO_ROOT,
    env: { ...OUR_ENV, DATABASE_URL: `sqlite:${join(dir, 'capture.db')}` },
  });
  try {
    for (const request of scenario.setup ?? [])
      await send(Number(new URL(server.baseUrl).port), request);
    const captures = await captureFirst(server.baseUrl, {
      id: scenario.id,
      title: scenario.title,
      requests: firstRequests(scenario.sequence, CEILING_ANSWERS),
    });
    const file = join(dir, 'ceiling.json');
    await writeCeilingFile(file, captures);
    return file;
  } finally {
    await server.stop();
  }
}

const CEILING_ANSWERS = 16;

async function main(): Promise<void> {
  const scope = { ...SCOPE, configs: Math.min(50, STORED.configs) };
  const scenario = buildScenarios(scope).find((s) => s.id === values.scenario);
  if (scenario === undefined) throw new Error(`no scenario ${values.scenario}`);
  const seed = await seedDatabase();
  const dir = join(work, `run-${process.pid}`);
  mkdirSync(dir, { recursive: true });
  copyFileSync(seed, join(dir, 'bench.db'));
  const port = await freePort();
  const out = join(dir, 'callgrind.out');
  const profile = values['cpu-prof'];
  const trace = values.strace;
  const [command, args] = commandLine(out, profile, trace);
  const ceiling = values.ceiling
    ? { CEILING_FILE: await ceilingFile(scenario, seed, dir) }
    : {};
  const child = spawn(command, args, {
    cwd: REPO_ROOT,
    env: {
      ...process.env,
      ...OUR_ENV,
      ...ceiling,
      DATABASE_URL: `sqlite:${join(dir, 'bench.db')}`,
      PORT: String(port),
      HOST: '127.0.0.1',
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on(
    'data',
    (d: Buffer) => (stderr = (stderr + d.toString()).slice(-4000)),
  );
  const pid = String(child.pid);
  try {
    await waitHealthy(port);
    const n = Number(values.requests);
    const warmup = Number(values.warmup);
    const connections = Number(values.connections);
    if (!values.ceiling)
      for (const request of scenario.setup ?? []) await send(port, request);
    const sequence = values.ceiling
      ? ceilingSequence(scenario, CEILING_ANSWERS)
      : scenario.sequence;
    const target = { port, sequence, connections };
    await sendRange(target, 0, warmup);
    if (profile !== undefined || trace !== undefined) {
      await sendRange(target, warmup, n * Number(values.windows));
      return;
    }
    control(['--zero', pid]);
    const perRequest: number[] = [];
    const splits: Split[] = [];
    const windows = Number(values.windows);
    for (let w = 0; w < windows; w++) {
      await sendRange(target, warmup + w * n, n);
      control([`--dump=window${w}`, pid]);
      const total = totalOf(`${out}.${w + 1}`);
      perRequest.push(total / n);
      splits.push(splitOf(`${out}.${w + 1}`, total));
    }
    const mean = perRequest.reduce((x, y) => x + y, 0) / windows;
    process.stdout.write(
      `${scenario.id}: instructions/request ${Math.round(mean)} (windows: ` +
        `${perRequest.map(Math.round).join(' ')}; warm-up ${warmup}, ` +
        `${windows} × ${n} requests, ${connections} connections)\n`,
    );
    const each = (part: keyof Split) =>
      splits.map((split) => Math.round(split[part] / n)).join(' ');
    process.stdout.write(
      `  per window: main thread without GC ${each('rest')}; ` +
        `main-thread GC ${each('gc')}; background threads ${each('background')}\n`,
    );
  } catch (error) {
    process.stderr.write(stderr);
    throw error;
  } finally {
    // strace does not pass SIGTERM on: the server is its child.
    for (const server of trace === undefined ? [] : childrenOf(child.pid))
      process.kill(server, 'SIGTERM');
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
    if (!values.annotate) rmSync(dir, { recursive: true, force: true });
    else process.stdout.write(`dumps in ${dir}\n`);
  }
}

await main();
