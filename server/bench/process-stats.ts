/**
 * CPU time and memory of a server's processes, read from Linux `/proc`: a process and every live
 * descendant (cluster workers, or the real server behind an `npm`/`bun` wrapper). CPU time is steadier
 * than req/s on a busy machine: it counts the work a server did, not how long it waited for a core.
 * Where there is no `/proc` (macOS, Windows) every figure is null and the tables print `—`.
 */
import { execFileSync } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';

/** Clock ticks per second of `/proc/<pid>/stat` (`getconf CLK_TCK`, 100 on nearly every Linux). */
const CLOCK_TICKS = (() => {
  try {
    const n = Number(execFileSync('getconf', ['CLK_TCK']).toString().trim());
    return Number.isFinite(n) && n > 0 ? n : 100;
  } catch {
    return 100;
  }
})();

/** The fields of `/proc/<pid>/stat` the figures need. */
export interface ProcStat {
  pid: number;
  ppid: number;
  /** User + system CPU time of the process itself (its threads), clock ticks. */
  ticks: number;
}

/**
 * Parses one `/proc/<pid>/stat` line. The command name (field 2) sits in parentheses and may hold spaces
 * and parentheses itself, so the fields are counted from the last `)`.
 */
export function parseStat(line: string): ProcStat | null {
  const close = line.lastIndexOf(')');
  if (close < 0) return null;
  const pid = Number(line.slice(0, line.indexOf(' ')));
  // After ") ": state(3) ppid(4) … utime(14) stime(15).
  const rest = line
    .slice(close + 2)
    .trim()
    .split(/\s+/);
  const ppid = Number(rest[1]);
  const utime = Number(rest[11]);
  const stime = Number(rest[12]);
  if (![pid, ppid, utime, stime].every(Number.isFinite)) return null;
  return { pid, ppid, ticks: utime + stime };
}

async function allStats(): Promise<ProcStat[]> {
  const entries = await readdir('/proc');
  const stats = await Promise.all(
    entries
      .filter((e) => /^\d+$/.test(e))
      .map(async (e) => {
        try {
          return parseStat(await readFile(`/proc/${e}/stat`, 'utf8'));
        } catch {
          return null; // ended meanwhile
        }
      }),
  );
  return stats.filter((s): s is ProcStat => s !== null);
}

/** `root` and its live descendants, from a list of every process. */
export function processTree(
  stats: readonly ProcStat[],
  root: number,
): ProcStat[] {
  const children = new Map<number, ProcStat[]>();
  for (const s of stats) {
    const list = children.get(s.ppid) ?? [];
    list.push(s);
    children.set(s.ppid, list);
  }
  const out: ProcStat[] = [];
  const self = stats.find((s) => s.pid === root);
  if (self === undefined) return out;
  const queue = [self];
  while (queue.length > 0) {
    const next = queue.shift() as ProcStat;
    out.push(next);
    queue.push(...(children.get(next.pid) ?? []));
  }
  return out;
}

/**
 * CPU time (user + system) of process `pid` and its live descendants so far, µs; null without `/proc`
 * or when the process is gone. A descendant that ended in between takes its time with it, so measure
 * over spans in which the processes stay up.
 */
export async function treeCpuMicros(pid: number): Promise<number | null> {
  try {
    const tree = processTree(await allStats(), pid);
    if (tree.length === 0) return null;
    const ticks = tree.reduce((sum, s) => sum + s.ticks, 0);
    return (ticks * 1e6) / CLOCK_TICKS;
  } catch {
    return null;
  }
}

/** Resident set size of `pid` and its live descendants, KiB (`VmRSS`); null without `/proc`. */
export async function treeRssKiB(pid: number): Promise<number | null> {
  try {
    const tree = processTree(await allStats(), pid);
    if (tree.length === 0) return null;
    let total = 0;
    for (const { pid: p } of tree) {
      try {
        const status = await readFile(`/proc/${p}/status`, 'utf8');
        total += Number(/^VmRSS:\s+(\d+)\s+kB/m.exec(status)?.[1] ?? 0);
      } catch {
        // ended meanwhile
      }
    }
    return total;
  } catch {
    return null;
  }
}
