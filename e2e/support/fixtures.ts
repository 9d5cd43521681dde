/**
 * The test object of the e2e suite: Playwright's, plus `ownServer`, a server process private to one
 * test (its own port and database) for tests that stop or restart the server.
 */
import { test as base } from '@playwright/test';
import { ServerProcess } from './server.js';

/** Fixtures added to Playwright's. */
export interface E2eFixtures {
  /** A server started for this test only; stopped and deleted afterwards. */
  ownServer: ServerProcess;
}

/** Playwright's `test` with the suite's fixtures. */
export const test = base.extend<E2eFixtures>({
  // Playwright reads fixture dependencies from the destructuring pattern; this one has none.
  // eslint-disable-next-line no-empty-pattern
  ownServer: async ({}, use, testInfo) => {
    const server = await ServerProcess.launch();
    try {
      await use(server);
    } finally {
      if (testInfo.status !== testInfo.expectedStatus && server.log)
        await testInfo.attach('server-output', {
          body: server.log,
          contentType: 'text/plain',
        });
      await server.dispose();
    }
  },
});

export { expect } from '@playwright/test';
