import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { SHAPES } from './measure-weights.js';
import { PART_WEIGHTS, partWeight } from './weights.js';
import type { WeighedPart } from './weights.js';

const script = fileURLToPath(new URL('./measure-weights.ts', import.meta.url));
const PARTS: readonly WeighedPart[] = [
  'stored',
  'entry',
  'prepared',
  'searchIndex',
];
const VERSIONS = 20;
/** What heap readings move by without any real allocation, summed over one step. */
const NOISE = 384 * 1024;
/** The shapes the factors were fitted on. */
const FITTED: ReadonlySet<string> = new Set([
  'typical',
  'tiny-links',
  'blocked-urls',
]);

describe('cache weights', () => {
  it.each(SHAPES)(
    'never undercount what a version keeps alive (%s configs)',
    (shape) => {
      const measured = JSON.parse(
        execFileSync(
          process.execPath,
          ['--expose-gc', '--import', 'tsx', script, shape],
          { encoding: 'utf8', timeout: 120_000 },
        ),
      ) as Record<string, number>;
      const totals = {
        chars: measured['chars'] ?? 0,
        width: measured['width'] === 2 ? (2 as const) : (1 as const),
        links: measured['links'] ?? 0,
      };
      for (const part of PARTS) {
        const actual = measured[part] ?? 0;
        // The entry costs something only when sanitizing changed links (then it is counted per link).
        const copies = measured['entryCopies'] ?? 0;
        const estimate =
          part === 'entry'
            ? PART_WEIGHTS.fixed * VERSIONS +
              (copies === VERSIONS ? partWeight(part, totals) : 0)
            : partWeight(part, totals);
        // Never below what the part really keeps alive (up to the noise of heap readings, a few hundred
        // KiB over 20 versions); on the link-heavy shapes the factors were fitted on, not absurdly above
        // it either. Few long strings (`long-texts`) or two-byte text come out overestimated: safe.
        expect(estimate, part).toBeGreaterThanOrEqual(actual - NOISE);
        if (FITTED.has(shape) && actual > 4 * NOISE) {
          expect(estimate, part).toBeLessThanOrEqual(actual * 3);
        }
      }
    },
    120_000,
  );
});
