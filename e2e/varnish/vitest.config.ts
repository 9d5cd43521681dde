import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

/**
 * The cache test (`npm run test:varnish`, part of `npm test`): the production build of the server behind
 * Debian's varnish with docs/varnish/linkconfig.vcl. Apart from the unit suites because it needs both
 * (`npm run build` first; e2e/scripts/ensure-varnish.mjs installs varnish when it may).
 */
export default defineConfig({
  test: {
    root: fileURLToPath(new URL('.', import.meta.url)),
    include: ['*.test.ts'],
    // Its suites share the machine's loopback ports and CPUs: one at a time.
    fileParallelism: false,
    hookTimeout: 60_000,
    testTimeout: 90_000,
  },
});
