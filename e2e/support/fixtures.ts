/**
 * The test object of the e2e suite: Playwright's, plus
 * - `sharedServer`, the server most tests use (`baseURL` points at it): one per worker, with its own
 *   port and database, so that specs running in different workers never see each other's configs,
 *   keys, counts or event streams; the specs of one worker share it one after another, as all specs
 *   shared one server when the suite ran in a single worker;
 * - `ownServer`, a server process private to one test (its own port and database) for tests that stop
 *   or restart the server.
 */
import { test as base } from '@playwright/test';
import type { TestInfo } from '@playwright/test';
import { ServerProcess } from './server.js';

/** Fixtures added to Playwright's, per test. */
export interface E2eFixtures {
  /** A server started for this test only; stopped and deleted afterwards. */
  ownServer: ServerProcess;
}

/** Fixtures added to Playwright's, per worker. */
export interface E2eWorkerFixtures {
  /** The server of this worker's tests (started on first use, stopped when the worker ends). */
  sharedServer: ServerProcess;
}

async function attachLog(
  server: ServerProcess,
  testInfo: TestInfo,
): Promise<void> {
  if (testInfo.status !== testInfo.expectedStatus && server.log)
    await testInfo.attach('server-output', {
      body: server.log,
      contentType: 'text/plain',
    });
}

/** Playwright's `test` with the suite's fixtures. */
export const test = base.extend<E2eFixtures, E2eWorkerFixtures>({
  sharedServer: [
    // Playwright reads fixture dependencies from the destructuring pattern; this one has none.
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      const server = await ServerProcess.launch();
      try {
        await use(server);
      } finally {
        await server.dispose();
      }
    },
    { scope: 'worker', timeout: 60_000 },
  ],
  baseURL: async ({ sharedServer }, use, testInfo) => {
    await use(sharedServer.baseURL);
    await attachLog(sharedServer, testInfo);
  },
  // eslint-disable-next-line no-empty-pattern
  ownServer: async ({}, use, testInfo) => {
    const server = await ServerProcess.launch();
    try {
      await use(server);
    } finally {
      await attachLog(server, testInfo);
      await server.dispose();
    }
  },
});

export { expect } from '@playwright/test';
