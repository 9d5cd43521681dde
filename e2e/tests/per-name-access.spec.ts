/**
 * Access is per name (issue 28, point 3): with a write key for `site-a/*` the page knows before any
 * request that it may not create `site-b/menu` and says so in the form; a write the server refuses
 * (403) for one name changes nothing for the others, across a reload; and the refused change can be
 * discarded, which takes the stray local config away again.
 */
import type { Page } from '@playwright/test';
import {
  addLink,
  configButton,
  linkRow,
  openApp,
  openConfig,
  saveConfig,
} from '../support/app.js';
import { ServerProcess } from '../support/server.js';
import { expect, test } from '../support/fixtures.js';

const ADMIN = 'e2e-admin-token';

async function signIn(page: Page, secret: string): Promise<void> {
  await page.getByTestId('open-settings').click();
  const dialog = page.getByTestId('settings-dialog');
  await dialog.getByLabel('Access key or server token').fill(secret);
  await dialog.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(dialog).toBeHidden();
}

async function adminCall(
  baseURL: string,
  { method, path }: { method: string; path: string },
  body: unknown,
): Promise<unknown> {
  const response = await fetch(`${baseURL}${path}`, {
    method,
    headers: {
      'Content-Type': 'application/json',
      Authorization: `Bearer ${ADMIN}`,
    },
    body: JSON.stringify(body),
  });
  expect(response.status, `${method} ${path}`).toBeLessThan(300);
  return response.status === 204 ? null : response.json();
}

test('a write key for site-a/*: site-b is refused in the form before any request; a 403 for one name locks nothing else; discard removes the stray copy', async ({
  page,
}) => {
  test.slow();
  const server = await ServerProcess.launch({ API_TOKEN: ADMIN });
  try {
    const home = { home: { label: 'Home', url: 'https://example.com/' } };
    for (const name of ['site-a/menu', 'site-a/footer'])
      await adminCall(
        server.baseURL,
        { method: 'PUT', path: `/configs/${encodeURIComponent(name)}` },
        { allLinks: home },
      );
    const key = (await adminCall(
      server.baseURL,
      { method: 'POST', path: '/keys' },
      {
        label: 'site A editor',
        scope: 'write',
        configs: ['site-a/*'],
      },
    )) as { secret: string };
    const writes: string[] = [];
    page.on('request', (request) => {
      if (request.method() !== 'GET' && request.url().includes('/configs/'))
        writes.push(`${request.method()} ${request.url()}`);
    });
    await openApp(page, server.baseURL);
    await signIn(page, key.secret);
    await expect(page.getByTestId('key-access')).toContainText('site-a/*');

    // Known before the request: the form says why, nothing is sent, nothing is stored here.
    await page.getByLabel('New config name').fill('site-b/menu');
    await page.getByRole('button', { name: 'Create config' }).click();
    await expect(page.locator('#new-config-name-problem')).toContainText(
      'may not write site-b/menu',
    );
    await expect(configButton(page, 'site-b/menu')).toHaveCount(0);
    expect(writes.filter((w) => w.includes('site-b'))).toEqual([]);

    // The server refuses one name (here: a rule the page could not know): only that name.
    await page.route('**/configs/site-a%2Ffooter', (route) =>
      route.request().method() === 'GET'
        ? route.continue()
        : route.fulfill({
            status: 403,
            contentType: 'application/json',
            body: JSON.stringify({ error: 'forbidden' }),
          }),
    );
    await openConfig(page, 'site-a/footer');
    await addLink(page, { id: 'refused', url: 'https://example.com/r' });
    await saveConfig(page);
    const letters = page.getByTestId('dead-letters');
    await expect(letters).toContainText('site-a/footer');
    await page.reload();
    await expect(page.getByTestId('status-server')).not.toContainText(
      'may only read',
    );
    await openConfig(page, 'site-a/menu');
    await expect(page.getByTestId('read-only-notice')).toHaveCount(0);
    await addLink(page, { id: 'kept', url: 'https://example.com/k' });
    await saveConfig(page);
    await expect
      .poll(async () => {
        const stored = await fetch(
          `${server.baseURL}/configs/${encodeURIComponent('site-a/menu')}`,
          { headers: { Authorization: `Bearer ${ADMIN}` } },
        );
        const body = (await stored.json()) as {
          config: { allLinks: object };
        };
        return Object.keys(body.config.allLinks);
      })
      .toContain('kept');

    // Discarding the refused change puts the server's version back in this browser.
    await page
      .getByTestId('dead-letters')
      .getByRole('button', { name: 'Discard the change to “site-a/footer”' })
      .click();
    await openConfig(page, 'site-a/footer');
    await expect(linkRow(page, 'home')).toBeVisible();
    await expect(linkRow(page, 'refused')).toHaveCount(0);
  } finally {
    await server.dispose();
  }
});
