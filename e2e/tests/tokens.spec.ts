/**
 * A server with both tokens (API_TOKEN for writes, READ_TOKEN for reads): the page says the server
 * needs a token, takes one in its settings, tells a refused or read-only token apart, and sends what
 * waited once the write token is there. The token is kept across reloads.
 */
import {
  addLink,
  CONNECTED,
  configButton,
  createConfig,
  expectAccessible,
  expectNothingPending,
  openApp,
  openConfig,
  pendingCount,
  saveConfig,
  screenshot,
} from '../support/app.js';
import { ServerProcess } from '../support/server.js';
import { expect, test } from '../support/fixtures.js';
import type { Page } from '@playwright/test';

const WRITE = 'e2e-write-token';
const READ = 'e2e-read-token';

/** Enters `token` in the settings dialog, opened from `opener`. */
async function enterToken(page: Page, token: string): Promise<void> {
  await page.getByTestId('open-settings').click();
  const dialog = page.getByTestId('settings-dialog');
  await expect(dialog).toBeVisible();
  await dialog.getByLabel('Access key or server token').fill(token);
  await dialog.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(dialog).toBeHidden();
}

test('the page asks for a token, tells read-only from refused, and delivers with the write token', async ({
  page,
  request,
}, testInfo) => {
  // A long flow with its own server: more time than one step needs.
  test.slow();
  const server = await ServerProcess.launch({
    API_TOKEN: WRITE,
    READ_TOKEN: READ,
  });
  try {
    const status = page.getByTestId('status-server');
    await openApp(page, server.baseURL);
    await expect(status).toHaveText('The server needs a token.');
    await expect(page.getByTestId('list-notice')).toContainText(
      'The server needs a token before it shows its configs.',
    );
    await expect(configButton(page, 'demo')).toHaveCount(0);
    await screenshot(page, testInfo, 'needs-token');
    await expectAccessible(page, testInfo, 'needs-token');

    // The status offers the settings; a wrong token is called what it is.
    await page
      .getByTestId('status')
      .getByRole('button', { name: 'Sign in with a key' })
      .click();
    const dialog = page.getByTestId('settings-dialog');
    await expect(dialog.getByLabel('Access key or server token')).toBeFocused();
    await expectAccessible(page, testInfo, 'settings-dialog');
    await dialog.getByLabel('Access key or server token').fill('not-the-token');
    await dialog.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect(status).toHaveText('The server did not accept the token.');

    // The read token shows the configs, and the page knows up front (GET /access) that it may only
    // read: editing is off before any edit, and a config it may not write cannot be created — the form
    // says why before any request (issue 28, point 3: the page knows which names a key may write).
    await enterToken(page, READ);
    await expect(configButton(page, 'demo')).toBeVisible();
    await openConfig(page, 'demo');
    await expect(page.getByTestId('read-only-notice')).toContainText(
      'this key may not write demo',
    );
    await expect(page.getByTestId('save-config')).toBeDisabled();
    await page.getByLabel('New config name').fill('tokened');
    await page.getByRole('button', { name: 'Create config' }).click();
    await expect(
      page.getByText(/Not allowed: .*tokened/).first(),
    ).toBeVisible();
    await expect(page.getByTestId('editor-heading')).toHaveText('demo');
    await expect.poll(() => pendingCount(page)).toBe(0);
    await screenshot(page, testInfo, 'read-only-token');

    // With the write token the same name is created and delivered.
    await enterToken(page, WRITE);
    await createConfig(page, 'tokened');
    await openConfig(page, 'demo');
    await addLink(page, { id: 'tokened', url: 'https://example.com/t' });
    await saveConfig(page);
    await expect
      .poll(async () => {
        const stored = await request.get(`${server.baseURL}/configs/demo`, {
          headers: { Authorization: `Bearer ${READ}` },
        });
        return ((await stored.json()) as { config: { allLinks: object } })
          .config.allLinks;
      })
      .toHaveProperty('tokened', { url: 'https://example.com/t' });
    const created = await request.get(`${server.baseURL}/configs/tokened`, {
      headers: { Authorization: `Bearer ${READ}` },
    });
    expect(created.status()).toBe(200);
    await expectNothingPending(page);
    await expect(status).toHaveText(CONNECTED);

    // Expressions and searches send the token too.
    await page.getByLabel('Expression', { exact: true }).fill('tokened');
    await page.getByRole('button', { name: 'Run expression' }).click();
    await expect(page.getByTestId('query-result')).toHaveCount(1);

    // Kept in this browser: a reload needs no new token.
    await page.reload();
    await expect(page.locator('body')).toHaveAttribute('data-ready', 'true');
    await expect(page.getByTestId('editor-heading')).toHaveText('demo');
    await expect(status).toHaveText(CONNECTED);
  } finally {
    await server.dispose();
  }
});
