/**
 * The import and export dialog: a bookmarks file chosen in the dialog is previewed (new, merged,
 * skipped with the reason) before anything is saved, then imported into a new config that opens and
 * reaches the server; the open config downloads as JSON, bookmarks HTML and CSV, and the JSON download
 * is the config. Keyboard only where it matters, and axe finds nothing with the preview open.
 */
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import {
  configButton,
  expectAccessible,
  expectNothingPending,
  linkRow,
  openApp,
  serverLinks,
} from '../support/app.js';
import { expect, test } from '../support/fixtures.js';

const FIREFOX = fileURLToPath(
  new URL('../../shared/test-fixtures/transfer/firefox.html', import.meta.url),
);

test('import a bookmarks file into a new config, after a preview', async ({
  page,
  baseURL,
  request,
}, testInfo) => {
  await openApp(page, baseURL!);
  await page.getByTestId('open-import').click();
  const dialog = page.getByTestId('import-dialog');
  await expect(dialog).toBeVisible();
  await dialog.getByLabel('Into the config').fill('bookmarks-e2e');
  await dialog.getByLabel(/^A file/).setInputFiles(FIREFOX);

  // The preview comes first: nothing is saved yet.
  await expect(dialog.getByTestId('import-counts')).toHaveText(
    /5 new links, 0 already in the config \(merged into them\), 2 skipped, 4 new tags\./,
  );
  await expect(dialog.getByTestId('import-skipped')).toContainText(
    'javascript:alert(document.cookie) — a script-capable URL',
  );
  await expect(configButton(page, 'bookmarks-e2e')).toHaveCount(0);
  await expectAccessible(page, testInfo, 'import-preview');

  await dialog.getByTestId('import-confirm').press('Enter');
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId('editor-heading')).toHaveText('bookmarks-e2e');
  await expect(linkRow(page, 'sourdough_bread')).toBeVisible();
  await expect(page.getByTestId('announcer')).toHaveText(
    /Imported into “bookmarks-e2e”: 5 new, 0 merged\./,
  );
  await expectNothingPending(page);
  const links = await serverLinks(request, {
    baseURL: baseURL!,
    name: 'bookmarks-e2e',
  });
  expect(Object.keys(links ?? {})).toEqual([
    'about_mozilla',
    'sourdough_bread',
    'minestrone',
    'mdn_web_docs',
    'something_to_read',
  ]);
  expect(links?.['minestrone']?.tags).toEqual(['cooking_food', 'soups']);

  // The same file again merges everything and adds nothing.
  await page.getByTestId('open-import').click();
  await expect(dialog.getByLabel('Into the config')).toHaveValue(
    'bookmarks-e2e',
  );
  await dialog.getByLabel(/^A file/).setInputFiles(FIREFOX);
  await expect(dialog.getByTestId('import-counts')).toHaveText(
    /^0 new links, 5 already in the config/,
  );
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(dialog).toBeHidden();
});

test('export the open config: the JSON download is the config, HTML and CSV download too', async ({
  page,
  baseURL,
  request,
}) => {
  await openApp(page, baseURL!);
  await configButton(page, 'demo').click();
  await expect(page.getByTestId('editor-heading')).toHaveText('demo');
  await page.getByTestId('open-import').click();
  const dialog = page.getByTestId('import-dialog');
  // What HTML and CSV leave out of the demo is said before any download; JSON keeps everything.
  await expect(dialog.getByTestId('export-losses-csv')).toContainText(
    "CSV leaves out: the config's macros",
  );
  await expect(dialog.getByTestId('export-losses-csv')).toContainText(
    'meta.location',
  );
  await expect(dialog.getByTestId('export-losses-html')).toContainText(
    'Bookmarks HTML leaves out:',
  );
  await expect(dialog.getByTestId('export-losses-json')).toHaveCount(0);
  const downloaded = async (format: string) => {
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      dialog.getByTestId(`export-${format}`).click(),
    ]);
    expect(download.suggestedFilename()).toBe(`demo.${format}`);
    return readFile((await download.path()) ?? '', 'utf8');
  };
  const json = JSON.parse(await downloaded('json')) as {
    allLinks: Record<string, unknown>;
  };
  const stored = await request.get(`${baseURL!}/configs/demo`);
  expect(json).toEqual(((await stored.json()) as { config: unknown }).config);
  expect(await downloaded('html')).toMatch(
    /^<!DOCTYPE NETSCAPE-Bookmark-file-1>/,
  );
  const csv = await downloaded('csv');
  expect(csv.split('\n')[0]).toBe('id,url,label,tags,description');
  expect(csv.trimEnd().split('\n')).toHaveLength(
    Object.keys(json.allLinks).length + 1,
  );
  await expect(dialog.getByText('Downloaded “demo.csv”.')).toBeVisible();
});
