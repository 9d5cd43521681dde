/**
 * The page in everyday use (issue 29 item 16): controls that cannot be used look it (a read key sees
 * Save, Delete and Edit disabled, in other colours than when they work); a new link's id is made from
 * its label by the import's rule and can still be typed; tags typed in the form follow the one tag rule
 * the import follows; History names an unknown author in words. Screenshots at 1280 and 390 px.
 */
import type { Locator, Page } from '@playwright/test';
import {
  createConfig,
  expectAccessible,
  expectNothingPending,
  linkRow,
  openApp,
  openConfig,
  saveConfig,
  screenshot,
  serverLinks,
} from '../support/app.js';
import { ServerProcess } from '../support/server.js';
import { expect, test } from '../support/fixtures.js';

const WRITE = 'e2e-everyday-write';
const READ = 'e2e-everyday-read';

/** Signs in with `token` through the settings dialog. */
async function signIn(page: Page, token: string): Promise<void> {
  await page.getByTestId('open-settings').click();
  const dialog = page.getByTestId('settings-dialog');
  await dialog.getByLabel('Access key or server token').fill(token);
  await dialog.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(dialog).toBeHidden();
}

/**
 * How a disabled button differs from the same button enabled: an enabled copy is put beside it for a
 * moment and their computed colours, edge and cursor compared.
 */
async function disabledLook(button: Locator): Promise<{
  cursor: string;
  differs: string[];
}> {
  return button.evaluate((element) => {
    const copy = element.cloneNode(true) as HTMLButtonElement;
    copy.disabled = false;
    copy.removeAttribute('data-testid');
    element.after(copy);
    const off = getComputedStyle(element);
    const on = getComputedStyle(copy);
    const differs = (
      ['color', 'backgroundColor', 'borderTopColor', 'borderTopStyle'] as const
    ).filter((property) => off[property] !== on[property]);
    const cursor = off.cursor;
    copy.remove();
    return { cursor, differs };
  });
}

test('a read key sees Save, Delete and Edit disabled, and they look it', async ({
  page,
}, testInfo) => {
  test.slow();
  const server = await ServerProcess.launch({
    API_TOKEN: WRITE,
    READ_TOKEN: READ,
  });
  try {
    await openApp(page, server.baseURL);
    await signIn(page, READ);
    await openConfig(page, 'demo');
    await expect(page.getByTestId('read-only-notice')).toBeVisible();
    const controls = {
      save: page.getByTestId('save-config'),
      delete: page.getByTestId('delete-config'),
      edit: page.getByTestId('edit-link').first(),
      deleteLink: page.getByTestId('delete-link').first(),
    };
    for (const [name, control] of Object.entries(controls)) {
      await expect(control, name).toBeDisabled();
      const look = await disabledLook(control);
      expect(look.cursor, `${name}: cursor`).toBe('not-allowed');
      expect(look.differs, `${name}: its text colour`).toContain('color');
      expect(look.differs, `${name}: its edge`).toContain('borderTopStyle');
    }
    await expectAccessible(page, testInfo, 'read-key-disabled');
    await screenshot(page, testInfo, 'read-key-disabled-1280');
    await page.setViewportSize({ width: 390, height: 844 });
    await expect(controls.save).toBeDisabled();
    await expectAccessible(page, testInfo, 'read-key-disabled-390');
    await screenshot(page, testInfo, 'read-key-disabled-390');
  } finally {
    await server.dispose();
  }
});

test('a new link gets its id from the label, and tags follow the one tag rule', async ({
  page,
  request,
  baseURL,
}, testInfo) => {
  await openApp(page, baseURL!);
  await createConfig(page, 'everyday-form');
  const id = page.getByLabel('Id', { exact: true });
  const label = page.getByLabel('Label', { exact: true });
  const url = page.getByLabel('URL', { exact: true });
  const tags = page.getByLabel('Tags', { exact: true });

  // Made from the label as the import makes ids, and said so.
  await label.fill('Rust Book — 2nd ed.');
  await expect(id).toHaveValue('rust_book_2nd_ed');
  await expect(page.locator('#link-id-hint')).toContainText(
    'Made from the label',
  );
  await url.fill('https://doc.rust-lang.org/book/');
  // Typed in capitals and with spaces: stored as the import would store them, and shown first.
  await tags.fill('Featured, Web Dev');
  await expect(page.locator('#link-tags-hint')).toHaveText(
    'Stored as: featured, web_dev',
  );
  await screenshot(page, testInfo, 'link-form-derived-1280');
  await page.getByTestId('link-submit').click();
  const row = linkRow(page, 'rust_book_2nd_ed');
  await expect(row).toBeVisible();
  await expect(row.locator('.chip')).toHaveText(['featured', 'web_dev']);

  // The same label again: the next free id. An id typed by hand stays when the label changes.
  await label.fill('Rust Book — 2nd ed.');
  await expect(id).toHaveValue('rust_book_2nd_ed_2');
  await id.fill('rb');
  await label.fill('The Rust Book');
  await expect(id).toHaveValue('rb');
  await url.fill('https://example.com/rb');
  // A tag the rule would leave empty is refused, not dropped unseen.
  await tags.fill('日本語');
  await page.getByTestId('link-submit').click();
  await expect(page.locator('#link-tags-problem')).toContainText(
    'Tag "日本語" has no letter',
  );
  await tags.fill('Books');
  await page.getByTestId('link-submit').click();
  await expect(linkRow(page, 'rb').locator('.chip')).toHaveText(['books']);

  await saveConfig(page);
  await expectNothingPending(page);
  const stored = await serverLinks(request, {
    baseURL: baseURL!,
    name: 'everyday-form',
  });
  expect(stored?.['rust_book_2nd_ed']?.tags).toEqual(['featured', 'web_dev']);
  expect(stored?.['rb']?.tags).toEqual(['books']);

  await page.setViewportSize({ width: 390, height: 844 });
  await label.fill('Café Menu');
  await expect(id).toHaveValue('cafe_menu');
  await screenshot(page, testInfo, 'link-form-derived-390');
});

test('History names an unknown author in words, not a dash', async ({
  page,
  baseURL,
}) => {
  await openApp(page, baseURL!);
  await createConfig(page, 'everyday-history');
  await page.getByLabel('Label', { exact: true }).fill('One');
  await page.getByLabel('URL', { exact: true }).fill('https://example.com/one');
  await page.getByTestId('link-submit').click();
  await saveConfig(page);
  await expectNothingPending(page);
  await page.getByTestId('open-history').click();
  const revision = page.getByTestId('revision').first();
  await expect(revision).toContainText('Saved by an unknown author,');
  await expect(revision).not.toContainText('—');
  await revision.getByTestId('view-revision').click();
  await expect(page.getByTestId('revision-view')).toContainText(
    'Made by an unknown author,',
  );
});
