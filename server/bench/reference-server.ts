/**
 * Reference servers given on the command line (`--reference name=url[@pid]`): any server of the REST
 * contract that the benchmark did not start, measured beside ours (docs/benchmarks.md shows how to start
 * the Alap reference servers from `../shared/reference`). The benchmark loads the dataset into it, sends
 * it the same requests as ours and never stops it. Its CPU time per request needs its process id: after
 * `@` in the flag, or from `--reference-pid name=pid`; without one the CPU column shows `—`.
 */
import type { MeasuredServer } from './measured-server.js';
import { treeCpuMicros, treeRssKiB } from './process-stats.js';

/** One `--reference` flag, parsed. */
export interface ReferenceSpec {
  /** What the tables call it (`hono`, `bun-ref`, …). */
  name: string;
  /** Base URL, without a trailing slash. */
  url: string;
  /** The process whose CPU time (with its descendants') is counted, or null. */
  pid: number | null;
}

const NAME = /^[A-Za-z][\w.-]*$/;

/**
 * Parses `name=url` or `name=url@pid`.
 *
 * @example
 * parseReference('hono=http://127.0.0.1:3901@4242'); // { name: 'hono', url: 'http://127.0.0.1:3901', pid: 4242 }
 */
export function parseReference(raw: string): ReferenceSpec {
  const eq = raw.indexOf('=');
  const name = raw.slice(0, Math.max(0, eq));
  if (eq <= 0 || !NAME.test(name)) {
    throw new Error(
      `--reference must be name=url or name=url@pid (a name of letters, digits, . _ -), got "${raw}"`,
    );
  }
  let url = raw.slice(eq + 1);
  let pid: number | null = null;
  const at = /@(\d+)$/.exec(url);
  if (at?.[1] !== undefined) {
    pid = Number(at[1]);
    url = url.slice(0, at.index);
  }
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new Error(`--reference ${name}: "${url}" is not a URL`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new Error(`--reference ${name}: the URL must be http or https`);
  }
  if (name === 'ours' || name === 'ceiling' || name === 'baseline') {
    throw new Error(`--reference: "${name}" is the name of a built-in column`);
  }
  return { name, url: url.replace(/\/+$/, ''), pid };
}

/** Applies `--reference-pid name=pid` flags to parsed references. */
export function withPids(
  specs: readonly ReferenceSpec[],
  pids: readonly string[],
): ReferenceSpec[] {
  const out = specs.map((s) => ({ ...s }));
  for (const raw of pids) {
    const match = /^([^=]+)=(\d+)$/.exec(raw);
    const spec = out.find((s) => s.name === match?.[1]);
    if (match === null || spec === undefined) {
      throw new Error(
        `--reference-pid must be name=pid for a name given with --reference, got "${raw}"`,
      );
    }
    spec.pid = Number(match[2]);
  }
  return out;
}

/** A server somebody else started: measured, never stopped. */
export class ExternalServer implements MeasuredServer {
  readonly baseUrl: string;
  readonly pid: number | null;
  readonly output = '';

  constructor(spec: ReferenceSpec) {
    this.baseUrl = spec.url;
    this.pid = spec.pid;
  }

  /** Whether its process is known to have ended (only known with a pid). */
  get exited(): boolean {
    if (this.pid === null) return false;
    try {
      process.kill(this.pid, 0);
      return false;
    } catch (error) {
      return (error as NodeJS.ErrnoException).code === 'ESRCH';
    }
  }

  get exitStatus(): string {
    return this.exited ? 'ended' : 'running (not started by the benchmark)';
  }

  rssKiB(): Promise<number | null> {
    return this.pid === null ? Promise.resolve(null) : treeRssKiB(this.pid);
  }

  cpuMicros(): Promise<number | null> {
    return this.pid === null ? Promise.resolve(null) : treeCpuMicros(this.pid);
  }

  /** Not ours to stop. */
  async stop(): Promise<void> {}
}
