/**
 * Unsaved edits survive a reload (issue 29, item 16): the page keeps the open config's draft in the
 * browser store (the IndexedDB database of the hybrid store, not the page's own storage), and opening
 * the config again puts it back, still unsaved. Saving forgets it.
 */
import type { Page } from '@playwright/test';
import {
  editLink,
  expectLive,
  linkRow,
  openApp,
  openConfig,
  putOverRest,
  saveConfig,
  serverLinks,
} from '../support/app.js';
import { expect, test } from '../support/fixtures.js';

/** The drafts kept in the page's browser database, by name. */
async function keptDrafts(page: Page): Promise<string[]> {
  return page.evaluate(
    () =>
      new Promise<string[]>((resolve, reject) => {
        const open = indexedDB.open('linkconfig');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const db = open.result;
          if (!db.objectStoreNames.contains('drafts')) {
            db.close();
            resolve([]);
            return;
          }
          const keys = db
            .transaction('drafts')
            .objectStore('drafts')
            .getAllKeys();
          keys.onsuccess = () => {
            db.close();
            resolve(keys.result.map(String));
          };
          keys.onerror = () => reject(keys.error);
        };
      }),
  );
}

test('an unsaved edit survives a reload, kept in the browser store, and saving forgets it', async ({
  page,
  baseURL,
}) => {
  const name = 'draft-reload';
  await putOverRest(baseURL!, name, {
    allLinks: { a: { url: 'https://example.com/a', label: 'A' } },
  });
  // Leaving with unsaved edits asks first; this test says "leave".
  page.on('dialog', (dialog) => void dialog.accept());
  await openApp(page, baseURL!);
  await openConfig(page, name);
  await expectLive(page);
  await editLink(page, 'a', { label: 'Edited here' });
  await expect(page.getByTestId('draft-state')).toHaveAttribute(
    'data-dirty',
    'true',
  );
  await expect.poll(() => keptDrafts(page)).toEqual([name]);
  // Not in the page's own storage.
  const stored = await page.evaluate(() =>
    Object.keys(localStorage).map((key) => localStorage.getItem(key) ?? ''),
  );
  expect(stored.some((value) => value.includes('Edited here'))).toBe(false);

  await page.reload();
  await expect(page.getByTestId('editor-heading')).toHaveText(name);
  await expect(linkRow(page, 'a')).toContainText('Edited here');
  await expect(page.getByTestId('draft-state')).toHaveAttribute(
    'data-dirty',
    'true',
  );
  // Still a draft: the server has not seen it.
  expect(
    (await serverLinks(page.request, { baseURL: baseURL!, name }))?.['a']
      ?.label,
  ).toBe('A');

  await saveConfig(page);
  await expect
    .poll(async () => {
      const links = await serverLinks(page.request, {
        baseURL: baseURL!,
        name,
      });
      return links?.['a']?.label;
    })
    .toBe('Edited here');
  await expect.poll(() => keptDrafts(page)).toEqual([]);
  await page.reload();
  await expect(linkRow(page, 'a')).toContainText('Edited here');
  await expect(page.getByTestId('draft-state')).toHaveAttribute(
    'data-dirty',
    'false',
  );
});
