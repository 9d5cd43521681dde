/**
 * End-to-end tests of the web page against the real server in a real Chromium (issue #5). Each worker
 * starts its own shared server (the production build on a free port with a throwaway database, the
 * `sharedServer` fixture of e2e/support/fixtures.ts), so the two workers never share configs, keys,
 * counts or event streams; tests that stop the server start their own (e2e/support/server.ts).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { defineConfig } from '@playwright/test';
import { REPO_ROOT, SERVER_ENTRY } from './e2e/support/server.js';

for (const [file, hint] of [
  [SERVER_ENTRY, 'the server build is missing'],
  [
    join(REPO_ROOT, 'web-client/dist-app/index.html'),
    'the page build is missing',
  ],
] as const) {
  if (!existsSync(file))
    throw new Error(`${hint} (${file}): run "npm run build" first.`);
}

export default defineConfig({
  testDir: './e2e/tests',
  outputDir: './test-results',
  // Files run in parallel, the tests of one file in order in one worker. Two workers for two cores:
  // each has its own server and database (see above), and the files that start servers of their own
  // use their own ports and databases.
  fullyParallel: false,
  workers: 2,
  retries: 0,
  forbidOnly: true,
  timeout: 45_000,
  expect: { timeout: 10_000 },
  reporter: [
    ['list'],
    ['html', { open: 'never', outputFolder: 'playwright-report' }],
  ],
  use: {
    headless: true,
    serviceWorkers: 'block',
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
  projects: [{ name: 'chromium', use: { browserName: 'chromium' } }],
});
