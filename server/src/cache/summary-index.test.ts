/**
 * The summaries' bytes come back when their configs leave a class: a table that keeps the chunks of
 * dropped summaries would refuse new ones until a restart, and every search would read those configs.
 */
import { describe, expect, it } from 'vitest';
import { SLOT_BYTES, SummaryIndex } from './summary-index.js';
import type { SummarySets } from './summary-index.js';

/** A summary of `terms` distinct terms (and no word pairs). */
function sets(terms: number, seed = 0): SummarySets {
  return {
    terms: new Set(Array.from({ length: terms }, (_, i) => seed * 100_000 + i)),
    pairs: new Set(),
  };
}

describe('SummaryIndex', () => {
  it('gives back the bytes of chunks whose summaries all left, so another class can use them', () => {
    // Room for one chunk of the largest class (65,536 buckets × 4 bytes) and one of the smallest.
    const index = new SummaryIndex({
      budget: 65_536 * 4 + 4096 + 4 * SLOT_BYTES,
    });
    const large = sets(20_000);
    expect(index.set('a', 1, large)).toBe(true);
    expect(index.set('b', 1, large)).toBe(true);
    expect(index.stats().bytes).toBe(65_536 * 4 + 2 * SLOT_BYTES);
    // Both configs shrink to the smallest class: the large chunk is empty, and its bytes come back.
    expect(index.set('a', 2, sets(10, 1))).toBe(true);
    expect(index.set('b', 2, sets(10, 2))).toBe(true);
    expect(index.stats().bytes).toBe(1024 * 4 + 2 * SLOT_BYTES);
    // A third config, large, finds room again.
    expect(index.set('c', 1, large)).toBe(true);
    expect(index.slotAt('c', 1)).toBeDefined();
    expect(index.slotAt('a', 2)).toBeDefined();
    expect(
      index.candidates([{ terms: [1 * 100_000 + 3], pairs: [] }]),
    ).toContain(index.slotAt('a', 2));
  });

  it('keeps a chunk while one of its summaries is in use', () => {
    const index = new SummaryIndex({
      budget: 65_536 * 4 + 4096 + 4 * SLOT_BYTES,
    });
    const large = sets(20_000);
    index.set('a', 1, large);
    index.set('b', 1, large);
    index.delete('a');
    expect(index.stats().bytes).toBe(65_536 * 4 + 2 * SLOT_BYTES);
    expect(index.slotAt('b', 1)).toBeDefined();
    index.delete('b');
    expect(index.stats().bytes).toBe(0);
  });

  it("finds every summary that holds all of a query's terms, in every chunk", () => {
    const index = new SummaryIndex({ budget: 2 ** 24 });
    // 320 configs (ten chunks of the smallest class), each its own terms, some shared.
    for (let i = 0; i < 320; i++) index.set(`c${i}`, 1, sets(150, i % 40));
    for (let i = 0; i < 320; i++) {
      const query = [
        {
          terms: [(i % 40) * 100_000 + (i % 150), (i % 40) * 100_000 + 7],
          pairs: [],
        },
      ];
      const found = index.candidates(query);
      // Every config of the same terms holds them (and those of other terms may pass by chance).
      for (let j = i % 40; j < 320; j += 40) {
        expect(found).toContain(index.slotAt(`c${j}`, 1));
      }
    }
  });

  it('lets a term a config lacks pass in some chunks, not in all: configs of one vocabulary miss apart', () => {
    const index = new SummaryIndex({ budget: 2 ** 24 });
    // Ten chunks of configs with the same 200 terms: their buckets are the same with one mapping for all.
    for (let i = 0; i < 320; i++) index.set(`c${i}`, 1, sets(200));
    let passed = 0;
    for (let t = 0; t < 200; t++) {
      const found = index.candidates([{ terms: [500_000 + t], pairs: [] }]);
      passed += found.length;
      expect(found.length).toBeLessThan(320);
    }
    // About one chunk in ten lets a lacking term pass (a third of the buckets set, two buckets a term).
    expect(passed).toBeGreaterThan(0);
  });
});
