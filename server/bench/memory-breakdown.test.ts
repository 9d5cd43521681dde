import { describe, expect, it } from 'vitest';
import { describeMemory, metricSum } from './memory-breakdown.js';

const text = [
  '# HELP process_resident_memory_bytes Resident memory size in bytes.',
  'process_resident_memory_bytes 314572800',
  'nodejs_heap_size_total_bytes 209715200',
  'nodejs_heap_size_used_bytes 157286400',
  'nodejs_external_memory_bytes 20971520',
  'linkconfig_cache_bytes{cache="versions"} 52428800',
  'linkconfig_cache_bytes{cache="responses"} 10485760',
  'linkconfig_cache_bytes_total_other 7',
].join('\n');

describe('metricSum', () => {
  it('adds every series of one metric, and only that metric', () => {
    expect(metricSum(text, 'linkconfig_cache_bytes')).toBe(62_914_560);
    expect(metricSum(text, 'process_resident_memory_bytes')).toBe(314_572_800);
    expect(metricSum(text, 'nodejs_missing')).toBeNull();
  });
});

describe('describeMemory', () => {
  it('splits RSS into heap, outside the heap and the rest', () => {
    const line = describeMemory({
      rss: 300 * 1024 ** 2,
      heapTotal: 200 * 1024 ** 2,
      heapUsed: 150 * 1024 ** 2,
      external: 20 * 1024 ** 2,
      caches: 60 * 1024 ** 2,
    });
    expect(line).toContain('RSS 300 MiB = V8 heap 200 MiB (150 MiB live)');
    expect(line).toContain('outside the heap 20 MiB');
    expect(line).toContain('the rest 80 MiB');
    expect(line).toContain('60 MiB of CACHE_BYTES');
  });
});
