import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { SliceOptions } from '../../util/slices.js';
import { resolveIdsWithAnalysisInSlices } from '../analyze/analyze.js';
import { prepareConfig } from '../prepare/prepare.js';
import { resolve } from './resolve.js';
import { configArb, expressionArb } from '../test-arbitraries.js';
import { NOW } from '../test-catalog.js';

/** Slices that pause at every point where a computation may pause, counting the pauses. */
function everyStep(): SliceOptions & { pauses: () => number } {
  let pauses = 0;
  return {
    sliceMs: 0,
    pause: () => Promise.resolve(void (pauses += 1)),
    pauses: () => pauses,
  };
}

const options = { now: NOW, random: () => 0.5, diagnostics: false };

/** A config of `count` links, every 100th labelled `needle`, with search patterns over them. */
function largeConfig(count: number) {
  const allLinks: Record<string, unknown> = {};
  for (let i = 0; i < count; i++) {
    allLinks[`l${i}`] = {
      url: `https://example.org/${i}`,
      label: i % 100 === 0 ? `needle ${i}` : `link ${i}`,
      createdAt: NOW - i * 60_000,
    };
  }
  return {
    allLinks,
    searchPatterns: {
      none: 'zzz-nowhere',
      needles: { pattern: 'needle', options: { sort: 'alpha' } },
      recent: { pattern: 'link', options: { age: '1d', limit: 5 } },
    },
  };
}

describe('search patterns scanned in slices (issue 29, item 3)', () => {
  it('answers exactly as resolve does, for any config and expression', async () => {
    await fc.assert(
      fc.asyncProperty(configArb, expressionArb, async (config, expression) => {
        const sliced = await resolveIdsWithAnalysisInSlices(
          prepareConfig(config),
          expression,
          { ...options, slices: everyStep() },
        );
        expect(sliced.ids).toEqual(
          resolve(prepareConfig(config), expression, options).map((l) => l.id),
        );
      }),
      { numRuns: 300 },
    );
  });

  it('pauses while it scans a large config, and finds what evaluation at once finds', async () => {
    const config = largeConfig(2000);
    for (const expression of [
      '/none/',
      '/needles/ + /recent/',
      '/none/ | /needles/l',
    ]) {
      const slices = everyStep();
      const sliced = await resolveIdsWithAnalysisInSlices(
        prepareConfig(config),
        expression,
        { ...options, slices },
      );
      // A scan of 2,000 links pauses every 64 of them: about 31 pauses per scan.
      expect(slices.pauses(), expression).toBeGreaterThanOrEqual(30);
      expect(sliced.ids).toEqual(
        resolve(prepareConfig(config), expression, options).map((l) => l.id),
      );
    }
  });

  it('scans nothing again that the prepared config has kept', async () => {
    const prepared = prepareConfig(largeConfig(2000));
    await resolveIdsWithAnalysisInSlices(prepared, '/needles/', {
      ...options,
      slices: everyStep(),
    });
    const again = everyStep();
    const answer = await resolveIdsWithAnalysisInSlices(prepared, '/needles/', {
      ...options,
      slices: again,
    });
    expect(again.pauses()).toBe(0);
    expect(answer.ids).toHaveLength(20);
  });
});
