import { describe, expect, it } from 'vitest';
import {
  describeMemoryBound,
  inFlightAllowanceBytes,
  MEMORY_BASE_BYTES,
  memoryBoundBytes,
  requestWorkingBytes,
  YOUNG_GENERATION_BYTES,
} from './memory-bound.js';

const MiB = 1024 ** 2;
const one = {
  cacheBytes: 256 * MiB,
  workers: 1,
  connections: 16,
  largestBodyBytes: 120 * 1024,
};

describe('memoryBoundBytes', () => {
  it('is CACHE_BYTES + the base + the young generation + every connection’s request', () => {
    const allowance =
      YOUNG_GENERATION_BYTES + 16 * requestWorkingBytes(122_880);
    expect(inFlightAllowanceBytes(one)).toBe(allowance);
    expect(memoryBoundBytes(one)).toBe(
      256 * MiB + MEMORY_BASE_BYTES + allowance,
    );
  });

  it('counts CACHE_BYTES, the base and the young generation per worker, and the primary’s base', () => {
    const two = { ...one, workers: 2 };
    expect(memoryBoundBytes(two) - memoryBoundBytes(one)).toBe(
      256 * MiB + 2 * MEMORY_BASE_BYTES + YOUNG_GENERATION_BYTES,
    );
  });

  it('weighs a request by its body: bytes, text, parsed and prepared forms', () => {
    expect(requestWorkingBytes(0)).toBe(0);
    expect(requestWorkingBytes(240_000)).toBeGreaterThan(2 * 240_000);
  });
});

describe('describeMemoryBound', () => {
  const bound = memoryBoundBytes(one);
  const mb = (n: number) => `${(n / MiB).toFixed(0)} MiB`;

  it('names every part of the bound and says the RSS is within it', () => {
    const line = describeMemoryBound(bound - MiB, one);
    expect(line).toBe(
      `Memory bound after the run: (CACHE_BYTES 256 MiB + base ${mb(MEMORY_BASE_BYTES)}) + ` +
        `in-flight allowance ${mb(inFlightAllowanceBytes(one))} = ${mb(bound)}; ` +
        `RSS ${mb(bound - MiB)}: within.`,
    );
  });

  it('says by how much the RSS is over', () => {
    expect(describeMemoryBound(bound + 20 * MiB, one)).toMatch(
      /; RSS \d+ MiB: OVER by 20 MiB\.$/,
    );
  });

  it('shows the workers and the primary, and an unknown RSS', () => {
    const line = describeMemoryBound(null, { ...one, workers: 2 });
    expect(line).toContain(
      `2 × (CACHE_BYTES 256 MiB + base ${mb(MEMORY_BASE_BYTES)}) (and the primary’s base)`,
    );
    expect(line).toMatch(/; RSS n\/a\.$/);
  });
});
