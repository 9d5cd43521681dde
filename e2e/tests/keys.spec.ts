/**
 * Signing in with a key: the page asks the server what the key may do (`GET /access`) and says it,
 * lists only the configs the key may read, and turns editing off, with the reason, where it may not
 * write. An admin key gets the Keys panel: create (the secret shown once), list, revoke.
 */
import {
  addLink,
  configButton,
  expectAccessible,
  linkRow,
  openApp,
  openConfig,
  saveConfig,
  screenshot,
} from '../support/app.js';
import { ServerProcess } from '../support/server.js';
import { expect, test } from '../support/fixtures.js';
import type { Page, TestInfo } from '@playwright/test';

const ADMIN = 'e2e-admin-token';

/** Signs in with `secret` through the sign-in dialog. */
async function signIn(page: Page, secret: string): Promise<void> {
  await page.getByTestId('open-settings').click();
  const dialog = page.getByTestId('settings-dialog');
  await expect(dialog).toBeVisible();
  await dialog.getByLabel('Access key or server token').fill(secret);
  await dialog.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(dialog).toBeHidden();
}

/** Creates a key in the open Keys panel; answers its secret as shown once. */
async function createKey(
  page: Page,
  key: { label: string; scope: string; configs: string },
): Promise<string> {
  const panel = page.getByTestId('keys-dialog');
  await panel.getByLabel('Label', { exact: true }).fill(key.label);
  await panel.getByLabel('Scope').selectOption(key.scope);
  await panel.getByLabel('Config names').fill(key.configs);
  await panel.getByRole('button', { name: 'Create key' }).click();
  const secret = panel.getByTestId('key-secret');
  await expect(secret).toBeFocused();
  await expect(panel.getByTestId('key-created')).toContainText(
    'it will not be shown again',
  );
  const value = await secret.inputValue();
  expect(value).toMatch(/^lck_/);
  return value;
}

/** axe and a screenshot at the desktop and the phone width. */
async function checkBothWidths(
  page: Page,
  testInfo: TestInfo,
  name: string,
): Promise<void> {
  for (const [width, height] of [
    [1280, 900],
    [390, 844],
  ] as const) {
    await page.setViewportSize({ width, height });
    await screenshot(page, testInfo, `${name}-${width}`);
    await expectAccessible(page, testInfo, `${name}-${width}`);
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

test('an admin creates keys in the Keys panel; a key sees and edits only what it may; revoke', async ({
  page,
}, testInfo) => {
  test.slow();
  const server = await ServerProcess.launch({
    API_TOKEN: ADMIN,
    ANONYMOUS_READ: 'public/*',
  });
  try {
    for (const name of ['site-a/menu', 'site-b/menu', 'public/links']) {
      const response = await fetch(
        `${server.baseURL}/configs/${encodeURIComponent(name)}`,
        {
          method: 'PUT',
          headers: {
            'Content-Type': 'application/json',
            Authorization: `Bearer ${ADMIN}`,
          },
          body: JSON.stringify({
            allLinks: { home: { label: 'Home', url: 'https://example.com/' } },
          }),
        },
      );
      expect(response.status, `PUT ${name}`).toBeLessThan(300);
    }
    await openApp(page, server.baseURL);
    await signIn(page, ADMIN);
    await expect(page.getByTestId('key-access')).toHaveText(
      'The key “API_TOKEN” may read, write and manage keys for every config.',
    );

    // The Keys panel: a write key for site-a/*, its secret shown once.
    await page.getByTestId('open-keys').click();
    const panel = page.getByTestId('keys-dialog');
    await expect(panel).toBeVisible();
    const editor = await createKey(page, {
      label: 'site A editor',
      scope: 'write',
      configs: 'site-a/*',
    });
    await checkBothWidths(page, testInfo, 'keys-panel-secret');
    const reader = await createKey(page, {
      label: 'reader',
      scope: 'read',
      configs: '*',
    });
    await expect(panel.getByTestId('key-item')).toHaveCount(2);
    await expect(panel.getByTestId('key-list')).not.toContainText('lck_');
    await panel.getByRole('button', { name: 'Close' }).click();
    await expect(panel).toBeHidden();
    await expect(page.getByTestId('open-keys')).toBeFocused();
    // Opened again, no secret is shown any more.
    await page.getByTestId('open-keys').click();
    await expect(panel.getByTestId('key-created')).toHaveCount(0);
    await expect(panel.getByTestId('key-item')).toHaveCount(2);
    await page.keyboard.press('Escape');
    await expect(panel).toBeHidden();

    // The site A editor: its own site and what anyone may read, nothing else.
    await signIn(page, editor);
    await expect(page.getByTestId('key-access')).toHaveText(
      'The key “site A editor” may read and write configs named “site-a/*”.',
    );
    await expect(page.getByTestId('open-keys')).toHaveCount(0);
    await expect(configButton(page, 'site-a/menu')).toBeVisible();
    await expect(configButton(page, 'public/links')).toBeVisible();
    await expect(configButton(page, 'site-b/menu')).toHaveCount(0);
    await expect(configButton(page, 'demo')).toHaveCount(0);
    await openConfig(page, 'public/links');
    await expect(page.getByTestId('read-only-notice')).toContainText(
      'this key may not write public/links',
    );
    await expect(page.getByTestId('save-config')).toBeDisabled();
    await expect(
      linkRow(page, 'home').getByRole('button', { name: /^Edit/ }),
    ).toBeDisabled();
    await openConfig(page, 'site-a/menu');
    await expect(page.getByTestId('read-only-notice')).toHaveCount(0);
    await addLink(page, { id: 'edited', url: 'https://example.com/a' });
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
      .toContain('edited');

    // A read key: editing is off before any edit, with the reason.
    await signIn(page, reader);
    await expect(configButton(page, 'site-b/menu')).toBeVisible();
    await openConfig(page, 'site-b/menu');
    await expect(page.getByTestId('read-only-notice')).toContainText(
      'this key may not write site-b/menu',
    );
    await expect(page.getByTestId('save-config')).toBeDisabled();
    await expect(page.getByTestId('delete-config')).toBeDisabled();
    await checkBothWidths(page, testInfo, 'read-key');

    // Revoke the site A editor, after a question whose safe answer has the focus.
    await signIn(page, ADMIN);
    await page.getByTestId('open-keys').click();
    const item = panel
      .getByTestId('key-item')
      .filter({ hasText: 'site A editor' });
    await item
      .getByRole('button', { name: 'Revoke the key “site A editor”' })
      .click();
    const question = page.getByTestId('question-dialog');
    await expect(question).toContainText('Revoke the key “site A editor”?');
    await expect(
      question.getByRole('button', { name: 'Keep it' }),
    ).toBeFocused();
    await question.getByRole('button', { name: 'Revoke the key' }).click();
    await expect(item).toContainText('Revoked');
    await expect(item.getByRole('button')).toHaveCount(0);
    await checkBothWidths(page, testInfo, 'keys-panel-list');
    const refused = await fetch(`${server.baseURL}/configs`, {
      headers: { Authorization: `Bearer ${editor}` },
    });
    expect(refused.status).toBe(401);
  } finally {
    await server.dispose();
  }
});
