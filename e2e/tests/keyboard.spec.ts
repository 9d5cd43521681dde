/**
 * The page works with the keyboard alone: create a config, add a link, save, run an expression —
 * reaching every control with Tab and Shift+Tab, never the mouse, with a visible focus ring on the
 * way.
 */
import type { Page } from '@playwright/test';
import {
  expectNothingPending,
  linkRow,
  openApp,
  screenshot,
  serverLinks,
  tabTo,
} from '../support/app.js';
import { expect, test } from '../support/fixtures.js';

/** Whether the focused element shows a focus outline. */
const focusRingShown = (page: Page) =>
  page.evaluate(() => {
    const element = document.activeElement;
    if (!(element instanceof HTMLElement)) return false;
    const style = getComputedStyle(element);
    return style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) >= 2;
  });

test('create a config, add a link, save and run a query with the keyboard only', async ({
  page,
  baseURL,
  request,
}, testInfo) => {
  const name = 'keyboard-only';
  await openApp(page, baseURL!);

  await tabTo(page, page.getByLabel('New config name'));
  expect(await focusRingShown(page)).toBe(true);
  await page.keyboard.type(name);
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('editor-heading')).toHaveText(name);

  // The new, empty config puts the cursor in the first field of the link form.
  await expect(page.getByLabel('Id', { exact: true })).toBeFocused();
  await page.keyboard.type('kb');
  await page.keyboard.press('Tab');
  await page.keyboard.type('Keyboard');
  await page.keyboard.press('Tab');
  await page.keyboard.type('https://example.com/keyboard');
  await page.keyboard.press('Tab');
  await page.keyboard.type('keys, input');
  await page.keyboard.press('Enter');
  await expect(linkRow(page, 'kb')).toBeVisible();
  await expect(page.getByLabel('Id', { exact: true })).toBeFocused();

  // Back up to "Save config" (it sits above the links) and press it.
  const save = page.getByTestId('save-config');
  await tabTo(page, save, { backwards: true });
  expect(await focusRingShown(page)).toBe(true);
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('draft-state')).toHaveText(
    /Saved in this browser/,
  );
  await expectNothingPending(page);
  await expect
    .poll(() => serverLinks(request, { baseURL: baseURL!, name }))
    .toEqual({
      kb: {
        url: 'https://example.com/keyboard',
        label: 'Keyboard',
        tags: ['keys', 'input'],
      },
    });

  await tabTo(page, page.getByLabel('Expression', { exact: true }));
  await page.keyboard.type('.keys');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('query-result')).toHaveCount(1);
  await expect(page.getByTestId('query-result')).toHaveAttribute(
    'data-link-id',
    'kb',
  );

  // Ctrl+S saves from anywhere: edit the link through its row's Edit button.
  await tabTo(page, page.getByRole('button', { name: 'Edit link kb' }), {
    backwards: true,
  });
  await page.keyboard.press('Enter');
  await expect(page.getByLabel('Label', { exact: true })).toBeFocused();
  await page.keyboard.press('Control+A');
  await page.keyboard.type('Keys');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('draft-state')).toHaveText(/Unsaved edits/);
  await page.keyboard.press('Control+s');
  await expect(page.getByTestId('draft-state')).toHaveText(
    /Saved in this browser/,
  );
  await expect(linkRow(page, 'kb')).toContainText('Keys');
  await screenshot(page, testInfo, 'keyboard-done');
});
