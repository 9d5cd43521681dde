/**
 * Unsaved edits survive a reload (issue 29, item 16): the page keeps the open config's draft in the
 * browser store (the IndexedDB database of the hybrid store, not the page's own storage), and opening
 * the config again puts it back, still unsaved. Saving forgets it. The store keeps the version the
 * draft started from with it, so a change made elsewhere while the page was away meets the draft
 * through the three-way merge over that version, as a change arriving while it is open would.
 */
import type { Page } from '@playwright/test';
import {
  editLink,
  expectLive,
  expectNothingPending,
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

test('a change made elsewhere while the page was away meets the kept draft over the version it started from', async ({
  page,
  baseURL,
  request,
}) => {
  const name = 'draft-reload-merge';
  const B = { url: 'https://example.com/b', label: 'B' };
  await putOverRest(baseURL!, name, {
    allLinks: { a: { url: 'https://example.com/a', label: 'A' }, b: B },
  });
  page.on('dialog', (dialog) => void dialog.accept());
  await openApp(page, baseURL!);
  await openConfig(page, name);
  await expectLive(page);
  await editLink(page, 'a', { label: 'Mine' });
  await expect.poll(() => keptDrafts(page)).toEqual([name]);

  // The page is away; a colleague changes the same label and another link.
  await page.goto('about:blank');
  await putOverRest(baseURL!, name, {
    allLinks: {
      a: { url: 'https://example.com/a', label: 'Theirs' },
      b: { ...B, label: 'B by a colleague' },
    },
  });
  await openApp(page, baseURL!);
  await expect(page.getByTestId('editor-heading')).toHaveText(name);

  // One conflict, over the version the draft started from; Save waits for a decision.
  const notice = page.getByTestId('remote-change-notice');
  const rows = notice.getByTestId('conflict-row');
  await expect(rows).toHaveCount(1);
  await expect(rows).toHaveAttribute('data-path', 'allLinks/a/label');
  await expect(rows.locator('td[data-label="Before"]')).toContainText('A');
  await expect(rows).toContainText('Mine');
  await expect(rows).toContainText('Theirs');
  await expect(page.getByTestId('save-config')).toBeDisabled();

  await rows.getByRole('radio', { name: 'Yours' }).check();
  await notice.getByTestId('apply-picks').click();
  await expect(notice).toHaveCount(0);
  await saveConfig(page);
  await expectNothingPending(page);
  // Mine where both changed the label; the colleague's other change kept.
  await expect
    .poll(() => serverLinks(request, { baseURL: baseURL!, name }))
    .toEqual({
      a: { url: 'https://example.com/a', label: 'Mine' },
      b: { ...B, label: 'B by a colleague' },
    });
});
