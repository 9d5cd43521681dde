import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { HEAP_FLAGS } from './heap.js';

const run = promisify(execFile);

/**
 * Two workloads, each in a plain Node process (no loader, as the server runs) that sets the flags given as
 * JSON after start, as `tuneHeap` does, and prints its heap size: `churn` keeps 150 values alive as a
 * full cache does, then makes 3,000 more of the same shape that die at once (a search reading configs
 * beyond the cache); `replace` keeps replacing the 150 values (a cache whose versions change), and
 * prints the largest heap seen.
 */
const WORKLOADS = `
import { getHeapStatistics, setFlagsFromString } from 'node:v8';
const [workload, flags] = process.argv.slice(1);
for (const flag of JSON.parse(flags)) setFlagsFromString(flag);
function make(i) {
  const o = {};
  for (let k = 0; k < 2000; k++) o['k' + k] = { url: 'https://e/' + i + '/' + k, label: 'l' + k, tags: ['a', 'b'] };
  return o;
}
const kept = new Map();
let heap = 0;
if (workload === 'churn') {
  for (let i = 0; i < 150; i++) kept.set(i, make(i));
  for (let i = 0; i < 3000; i++) if (Object.keys(make(i)).length !== 2000) throw new Error('lost');
  heap = getHeapStatistics().total_heap_size;
} else {
  for (let i = 0; i < 3000; i++) {
    kept.set(i % 150, make(i));
    heap = Math.max(heap, getHeapStatistics().total_heap_size);
  }
}
process.stdout.write(JSON.stringify({ heap, kept: kept.size }));
`;

async function heapAfter(
  workload: 'churn' | 'replace',
  flags: readonly string[],
): Promise<number> {
  const { stdout } = await run(process.execPath, [
    '--input-type=module',
    '-e',
    WORKLOADS,
    workload,
    JSON.stringify(flags),
  ]);
  const out = JSON.parse(stdout) as { heap: number; kept: number };
  expect(out.kept).toBe(150);
  return out.heap;
}

describe('HEAP_FLAGS, set after start', () => {
  it('let values made beyond a full cache die young: a much smaller heap after the same churn', async () => {
    const plain = await heapAfter('churn', []);
    expect(await heapAfter('churn', HEAP_FLAGS)).toBeLessThan(plain * 0.8);
  }, 60_000);

  it('keep the heap of a cache whose values are replaced near twice what is live', async () => {
    const plain = await heapAfter('replace', []);
    expect(await heapAfter('replace', HEAP_FLAGS)).toBeLessThan(plain * 0.8);
  }, 60_000);
});
