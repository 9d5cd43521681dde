import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

/**
 * The packaging test (`npm run test:packaging`, part of `npm test`): packs the three packages, installs
 * them into fresh projects and uses them there. Apart from the unit suites because it takes minutes.
 */
export default defineConfig({
  test: {
    root: fileURLToPath(new URL('.', import.meta.url)),
    include: ['*.test.ts'],
    // Installing from the registry (and, when it cannot be reused, building better-sqlite3) is slow, and
    // so is type-checking every library declaration (skipLibCheck false) on a busy machine.
    hookTimeout: 15 * 60_000,
    testTimeout: 6 * 60_000,
  },
});
