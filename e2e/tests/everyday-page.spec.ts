/**
 * The page in everyday use (issue 29 item 16): controls that cannot be used look it (a read key sees
 * Save, Delete and Edit disabled, in other colours than when they work); a new link's id is made from
 * its label by the import's rule and can still be typed; tags typed in the form follow the one tag rule
 * the import follows; History names an unknown author in words. Screenshots at 1280 and 390 px.
 */
import type { Locator, Page, TestInfo } from '@playwright/test';
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
import { bigConfig } from '../support/big-config.js';
import { ServerProcess } from '../support/server.js';
import { expect, test } from '../support/fixtures.js';

/** A picture of the open dialog alone (the page behind it is long), kept with the test. */
async function dialogShot(
  dialog: Locator,
  testInfo: TestInfo,
  name: string,
): Promise<void> {
  const path = testInfo.outputPath(`${name}.png`);
  await dialog.getByTestId('import-preview').scrollIntoViewIfNeeded();
  await dialog.screenshot({ path });
  await testInfo.attach(name, { path, contentType: 'image/png' });
}

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

/** Bookmarks with a folder the tag rule empties, titles that give no id, a link demo has, a repeat. */
const BOOKMARKS = `<!DOCTYPE NETSCAPE-Bookmark-file-1>
<TITLE>Bookmarks</TITLE>
<DL><p>
  <DT><H3>日本語</H3>
  <DL><p>
    <DT><A HREF="https://ja.example.org/tokyo">東京</A>
    <DT><A HREF="https://ja.example.org/osaka">大阪の案内</A>
  </DL><p>
  <DT><A HREF="https://en.wikipedia.org/wiki/Volkswagen_Beetle">VW Beetle again</A>
  <DT><A HREF="https://a.example.org/one">One</A>
  <DT><A HREF="https://a.example.org/one">One again</A>
  <DT><A HREF="https://a.example.org/two">Two</A>
  <DT><A HREF="https://a.example.org/three">Three</A>
  <DT><A HREF="https://a.example.org/four">Four</A>
  <DT><A HREF="https://a.example.org/five">Five</A>
</DL>
`;

test('the import preview counts new links apart, shows sample rows and says what gives no name', async ({
  page,
  baseURL,
}, testInfo) => {
  test.slow();
  await openApp(page, baseURL!);
  await openConfig(page, 'demo');
  await page.getByTestId('open-import').click();
  const dialog = page.getByTestId('import-dialog');
  await dialog.getByLabel('Or paste its content').fill(BOOKMARKS);
  await dialog.getByLabel('Into the config').fill('demo');
  await dialog.getByTestId('import-preview-button').click();

  // Seven new links; the one demo has is merged, the repeat in the file is not "already there".
  await expect(dialog.getByTestId('import-counts')).toHaveText(
    '7 new links, 1 already in the config (merged into them), 1 repeated in the file (merged into the first of its URL), 0 skipped, 0 new tags. Nothing is saved until you import.',
  );
  await expect(dialog.getByTestId('import-confirm')).toHaveText(
    'Import 7 new links',
  );
  const sample = dialog.getByTestId('import-sample');
  await expect(sample.locator('caption')).toHaveText(
    'The first 5 of 7 new links',
  );
  await expect(sample.getByTestId('import-sample-row')).toHaveCount(5);
  await expect(sample.getByTestId('import-sample-row').first()).toContainText(
    'https://ja.example.org/tokyo',
  );
  // A folder that gives no tag, and titles that give the fallback id, are said.
  await expect(dialog.getByTestId('import-tags-dropped')).toContainText(
    'No tag is made from “日本語”',
  );
  await expect(dialog.getByTestId('import-notes')).toContainText(
    'its title gives no letter a-z or digit for an id, so it is named “link”',
  );
  await expect(dialog.getByTestId('import-notes')).toContainText('“link_2”');
  await expectAccessible(page, testInfo, 'import-preview-everyday');
  await dialogShot(dialog, testInfo, 'import-preview-1280');
  await page.setViewportSize({ width: 390, height: 844 });
  await dialogShot(dialog, testInfo, 'import-preview-390');
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(dialog).toBeHidden();
});

/** Where `locator` starts and how tall it is, in page pixels (its bounding box, scrolled or not). */
async function boxOf(
  locator: Locator,
): Promise<{ top: number; height: number }> {
  return locator.evaluate((element) => {
    const rect = element.getBoundingClientRect();
    return { top: rect.top + window.scrollY, height: rect.height };
  });
}

test.describe('at 390 px', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('the open config’s links start within the first screen', async ({
    page,
    baseURL,
  }, testInfo) => {
    await openApp(page, baseURL!);
    await openConfig(page, 'demo');
    const first = page.getByTestId('link-row').first();
    await expect(first).toBeVisible();
    const { top } = await boxOf(first);
    testInfo.annotations.push({
      type: 'measured',
      description: `first link row top at 390 px: ${Math.round(top)} px`,
    });
    // It started ~1,130 px down before (header, configs panel, finder all at full height).
    expect(top, 'top of the first link row, px').toBeLessThan(900);
    await screenshot(page, testInfo, 'demo-390');
  });

  test('a revision of a 500-link config stays short: the unchanged list folds', async ({
    page,
    request,
    baseURL,
  }, testInfo) => {
    test.slow();
    const name = 'everyday-revision-500';
    const config = bigConfig(500);
    const put = await request.put(`${baseURL}/configs/${name}`, {
      data: config,
    });
    expect(put.status()).toBeLessThan(300);
    const changed = structuredClone(config);
    changed.allLinks['l001'] = {
      ...changed.allLinks['l001']!,
      label: 'Renamed',
    };
    const second = await request.put(`${baseURL}/configs/${name}`, {
      data: changed,
    });
    expect(second.status()).toBeLessThan(300);

    await openApp(page, baseURL!);
    await openConfig(page, name);
    await page.getByTestId('open-history').click();
    const revisions = page.getByTestId('revision');
    await expect(revisions).toHaveCount(2);
    await revisions.nth(1).getByTestId('view-revision').click();
    const view = page.getByTestId('revision-view');
    await expect(view.getByTestId('revision-diff')).toBeVisible();
    const { height } = await boxOf(view);
    testInfo.annotations.push({
      type: 'measured',
      description: `revision view of a 500-link config at 390 px: ${Math.round(height)} px tall`,
    });
    // 52,931 px before: every link of the revision listed open.
    expect(height, 'height of the revision view, px').toBeLessThan(2_000);
    // The whole list is one click away.
    const all = view.getByTestId('revision-links-details');
    await expect(all.locator('summary')).toContainText('(500)');
    await all.locator('summary').click();
    await expect(view.getByTestId('revision-link')).toHaveCount(500);
    await expect(view.getByTestId('revision-link').first()).toBeVisible();
  });
});
