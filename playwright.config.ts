/**
 * End-to-end tests of the web page against the real server in a real Chromium (issue #5). The shared
 * server runs the production build on a free port with a throwaway database; tests that stop the
 * server start their own (e2e/support/server.ts).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { defineConfig } from '@playwright/test';
import {
  REPO_ROOT,
  SERVER_ENTRY,
  freePort,
  serverEnv,
  tempDir,
} from './e2e/support/server.js';

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

// The config is read by the runner and again by each worker: pick the port and database once and
// hand them down through the environment.
process.env['E2E_PORT'] ??= String(await freePort());
process.env['E2E_DB'] ??= join(tempDir(), 'shared.db');
const port = Number(process.env['E2E_PORT']);
const baseURL = `http://127.0.0.1:${port}`;

export default defineConfig({
  testDir: './e2e/tests',
  outputDir: './test-results',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  forbidOnly: true,
  timeout: 45_000,
  expect: { timeout: 10_000 },
  reporter: [
    ['list'],
    ['html', { open: 'never', outputFolder: 'playwright-report' }],
  ],
  use: {
    baseURL,
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
  webServer: {
    command: `node ${JSON.stringify(SERVER_ENTRY)}`,
    cwd: REPO_ROOT,
    url: `${baseURL}/healthz`,
    env: serverEnv({ port, databaseFile: process.env['E2E_DB'] }),
    reuseExistingServer: false,
    timeout: 30_000,
    stdout: 'ignore',
    stderr: 'pipe',
  },
});
