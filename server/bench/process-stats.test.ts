import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import {
  parseStat,
  processTree,
  treeCpuMicros,
  treeRssKiB,
} from './process-stats.js';

describe('parseStat', () => {
  it('reads pid, ppid and user + system ticks, whatever the command name holds', () => {
    const line =
      '4242 (node (worker) x) S 4200 4242 4200 0 -1 4194560 100 0 0 0 150 25 0 0 20 0 11 0 5000 1000 200';
    expect(parseStat(line)).toEqual({ pid: 4242, ppid: 4200, ticks: 175 });
    expect(parseStat('garbage')).toBeNull();
  });
});

describe('processTree', () => {
  it('takes a process and its descendants, not its siblings', () => {
    const stats = [
      { pid: 1, ppid: 0, ticks: 1 },
      { pid: 10, ppid: 1, ticks: 2 },
      { pid: 11, ppid: 10, ticks: 3 },
      { pid: 12, ppid: 11, ticks: 4 },
      { pid: 20, ppid: 1, ticks: 5 },
    ];
    expect(
      processTree(stats, 10)
        .map((s) => s.pid)
        .sort(),
    ).toEqual([10, 11, 12]);
    expect(processTree(stats, 99)).toEqual([]);
  });
});

describe.runIf(process.platform === 'linux')('on Linux', () => {
  it('counts the CPU time of a child that burns CPU, and its memory', async () => {
    // The child spins until it has used 400 ms of CPU time, says so, and idles.
    const child = spawn(process.execPath, [
      '-e',
      'while (process.cpuUsage().user + process.cpuUsage().system < 400_000); console.log("done"); setTimeout(() => {}, 30_000);',
    ]);
    try {
      await new Promise((resolve) => child.stdout.once('data', resolve));
      const pid = child.pid ?? -1;
      // At least the 400 ms it spun, give or take the 10 ms ticks.
      expect(await treeCpuMicros(pid)).toBeGreaterThan(350_000);
      expect(await treeRssKiB(pid)).toBeGreaterThan(1000);
      // Our own tree holds the child, so it has at least as much.
      expect(await treeCpuMicros(process.pid)).toBeGreaterThan(350_000);
    } finally {
      child.kill('SIGKILL');
    }
    expect(await treeCpuMicros(2 ** 22 + 12345)).toBeNull();
  });
});
