/**
 * One honest status line: its words and its one colour come from one model, so no part contradicts
 * another. Offline it does not claim live updates or that everything is on the server; pending changes
 * say how long they have waited; a delivery is announced; a conflict turns it red without "all changes
 * are on the server"; a read-only token is known and editing is off with the reason, after a reload too.
 */
import type { Page } from '@playwright/test';
import {
  addLinkAndSave,
  editLink,
  expectAccessible,
  expectLive,
  openApp,
  openConfig,
  pendingCount,
  putOverRest,
  saveConfig,
  screenshot,
} from '../support/app.js';
import { expect, test } from '../support/fixtures.js';
import { ServerProcess } from '../support/server.js';

function line(page: Page) {
  return page.getByTestId('status-line');
}

for (const width of [1280, 390]) {
  test.describe(`at ${width} px`, () => {
    test.use({ viewport: { width, height: width === 390 ? 844 : 900 } });

    test('online, offline with a waiting change, and the delivery', async ({
      page,
      context,
      baseURL,
    }, testInfo) => {
      const name = `status-${width}`;
      await putOverRest(baseURL!, name, {
        allLinks: { a: { url: 'https://example.com/a' } },
      });
      await page.clock.install();
      await openApp(page, baseURL!);
      await openConfig(page, name);
      await expectLive(page);
      await expect(line(page)).toHaveAttribute('data-tone', 'ok');
      await expect(line(page)).toContainText('All changes are on the server.');
      await expect(line(page)).toHaveAttribute('role', 'status');
      await screenshot(page, testInfo, `${width}-status-ok`);

      await context.setOffline(true);
      await expect(line(page)).toHaveAttribute('data-tone', 'warn');
      // Offline, nothing claims a live connection or that all is on the server.
      await expect(page.getByTestId('status-live')).toHaveAttribute(
        'data-live',
        'paused',
      );
      await expect(line(page)).not.toContainText('connected');
      await expect(line(page)).not.toContainText(
        'All changes are on the server',
      );
      await addLinkAndSave(page, { id: 'b', url: 'https://example.com/b' });
      await expect.poll(() => pendingCount(page)).toBe(1);
      await expect(page.getByTestId('status-pending')).toHaveText(
        '1 change waits to be sent to the server.',
      );
      await expect(page.getByTestId('status-age')).toHaveText(
        '(the oldest for under a minute)',
      );
      await page.clock.fastForward(150_000);
      await expect(page.getByTestId('status-age')).toHaveText(
        '(the oldest for 2 min)',
      );
      await screenshot(page, testInfo, `${width}-status-offline-pending`);
      await expectAccessible(page, testInfo, `${width}-status-offline`);

      await context.setOffline(false);
      await expect(page.getByTestId('announcer')).toContainText(
        'Saved to the server.',
        { timeout: 20_000 },
      );
      await expect(line(page)).toHaveAttribute('data-tone', 'ok');
      await expect(line(page)).toContainText('All changes are on the server.');
    });
  });
}

test('a conflict turns the line red and it does not say all is on the server', async ({
  page,
  context,
  baseURL,
}, testInfo) => {
  const name = 'status-conflict';
  await putOverRest(baseURL!, name, {
    allLinks: { first: { url: 'https://example.com/1' } },
  });
  await openApp(page, baseURL!);
  await openConfig(page, name);
  await expectLive(page);
  await context.setOffline(true);
  // The same field of the same link, changed differently on both sides: a true conflict (changes to
  // different links would merge by themselves).
  await editLink(page, 'first', { url: 'https://example.com/mine' });
  await saveConfig(page);
  await expect.poll(() => pendingCount(page)).toBe(1);
  await putOverRest(baseURL!, name, {
    allLinks: { first: { url: 'https://example.com/theirs' } },
  });
  await context.setOffline(false);
  await expect(page.getByTestId('status-conflicts')).toBeVisible({
    timeout: 20_000,
  });
  await expect(line(page)).toHaveAttribute('data-tone', 'bad');
  await expect(line(page)).not.toContainText('All changes are on the server');
  await screenshot(page, testInfo, 'status-conflict');
});

test('a read-only token: editing is off with the reason, known again after a reload', async ({
  page,
}, testInfo) => {
  test.slow();
  const WRITE = 'status-write-token';
  const READ = 'status-read-token';
  const server = await ServerProcess.launch({
    API_TOKEN: WRITE,
    READ_TOKEN: READ,
  });
  try {
    await openApp(page, server.baseURL);
    // Locked out: red, and no live updates claimed.
    await expect(line(page)).toHaveAttribute('data-tone', 'bad');
    await expect(page.getByTestId('status-live')).toHaveAttribute(
      'data-live',
      'paused',
    );
    await page.getByTestId('open-settings').click();
    const dialog = page.getByTestId('settings-dialog');
    await dialog.getByLabel('Access key or server token').fill(READ);
    await dialog.getByRole('button', { name: 'Sign in', exact: true }).click();
    await openConfig(page, 'demo');
    // The server says what the token may do (GET /access): editing is off before any edit.
    const notice = page.getByTestId('read-only-notice');
    await expect(notice).toContainText('Editing is off');
    await expect(notice).toContainText('this key may not write demo');
    await expect(line(page)).toHaveAttribute('data-tone', 'bad');
    await expect(page.getByTestId('save-config')).toBeDisabled();
    await expect(
      page.getByRole('button', { name: /^Edit link / }).first(),
    ).toBeDisabled();
    await expect(page.getByTestId('link-form')).toHaveCount(0);
    await screenshot(page, testInfo, 'status-read-only');
    await expectAccessible(page, testInfo, 'status-read-only');

    // After a reload the page knows before any edit.
    await page.reload();
    await expect(page.locator('body')).toHaveAttribute('data-ready', 'true');
    await expect(page.getByTestId('editor-heading')).toHaveText('demo');
    await expect(notice).toBeVisible();
    await expect(page.getByTestId('save-config')).toBeDisabled();
  } finally {
    await server.dispose();
  }
});
