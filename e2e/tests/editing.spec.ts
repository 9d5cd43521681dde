/**
 * Editing a config safely: URLs are checked as they are typed, a duplicate id asks before it
 * replaces, unsaved edits are not dropped without asking (switching configs, leaving the page), the
 * open config is remembered across reloads, and macros, search patterns and settings can be edited
 * with the server's rules.
 */
import {
  addLink,
  configButton,
  createConfig,
  fillLinkForm,
  linkRow,
  openApp,
  openConfig,
  questionDialog,
  saveConfig,
  screenshot,
  serverEntry,
} from '../support/app.js';
import { expect, test } from '../support/fixtures.js';

test('URLs are checked as they are typed, with a clear reason', async ({
  page,
  baseURL,
}, testInfo) => {
  await openApp(page, baseURL!);
  await createConfig(page, 'edit-urls');
  const url = page.getByLabel('URL', { exact: true });

  await page.getByLabel('Id', { exact: true }).fill('bad');
  await url.fill('javascript:alert(1)');
  await expect(page.locator('#link-url-problem')).toHaveText(
    /Links starting with "javascript:" are blocked because they can run code/,
  );
  await expect(url).toHaveAttribute('aria-invalid', 'true');
  await screenshot(page, testInfo, 'blocked-scheme');
  await page.getByTestId('link-submit').click();
  await expect(linkRow(page, 'bad')).toHaveCount(0);
  await expect(url).toBeFocused();

  await url.fill('example.com/page');
  await expect(page.locator('#link-url-problem')).toHaveText(
    'Add the scheme at the start, for example https://example.com/page.',
  );
  await url.fill('https://example.com/page');
  await expect(page.locator('#link-url-problem')).toHaveCount(0);
  await expect(url).not.toHaveAttribute('aria-invalid', 'true');

  // An id that expressions could not name is pointed out beside the field too.
  await page.getByLabel('Id', { exact: true }).fill('my-link');
  await expect(page.locator('#link-id-problem')).toHaveText(/"without"/);
  // Nothing of this reaches the page-wide status.
  await expect(page.getByTestId('status-problem')).toHaveCount(0);
});

test('an existing id asks before the link is replaced', async ({
  page,
  baseURL,
}) => {
  await openApp(page, baseURL!);
  await createConfig(page, 'edit-duplicate');
  await addLink(page, { id: 'docs', url: 'https://example.com/old' });

  await fillLinkForm(page, { id: 'docs', url: 'https://example.com/new' });
  await expect(page.locator('#link-id-hint')).toHaveText(
    /A link “docs” exists; you will be asked before it is replaced/,
  );
  await page.getByTestId('link-submit').click();
  const dialog = questionDialog(page);
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole('heading')).toHaveText(
    'Replace the link “docs”?',
  );
  // The safe answer has the focus: Enter keeps the existing link.
  await expect(
    dialog.getByRole('button', { name: 'Keep the existing link' }),
  ).toBeFocused();
  await dialog.getByRole('button', { name: 'Keep the existing link' }).click();
  await expect(dialog).toBeHidden();
  await expect(linkRow(page, 'docs')).toContainText('https://example.com/old');
  await expect(page.getByLabel('Id', { exact: true })).toBeFocused();

  await page.getByTestId('link-submit').click();
  await dialog.getByRole('button', { name: 'Replace link' }).click();
  await expect(linkRow(page, 'docs')).toContainText('https://example.com/new');
  await expect(page.getByTestId('link-row')).toHaveCount(1);
});

test('unsaved edits are not dropped without asking', async ({
  page,
  baseURL,
}) => {
  await openApp(page, baseURL!);
  await createConfig(page, 'edit-unsaved');
  await addLink(page, { id: 'keep', url: 'https://example.com/keep' });

  await configButton(page, 'demo').click();
  const dialog = questionDialog(page);
  await expect(dialog.getByRole('heading')).toHaveText(
    'Discard the unsaved edits to “edit-unsaved”?',
  );
  await dialog.getByRole('button', { name: 'Keep editing' }).click();
  await expect(page.getByTestId('editor-heading')).toHaveText('edit-unsaved');
  await expect(linkRow(page, 'keep')).toBeVisible();

  // Leaving the page asks too (the browser's own prompt).
  const prompt = page.waitForEvent('dialog');
  const closing = page.close({ runBeforeUnload: true });
  const shown = await prompt;
  expect(shown.type()).toBe('beforeunload');
  await shown.accept();
  await closing;
});

test('switching after saying "discard" drops the edits', async ({
  page,
  baseURL,
}) => {
  await openApp(page, baseURL!);
  await createConfig(page, 'edit-discard');
  await addLink(page, { id: 'gone', url: 'https://example.com/gone' });
  await configButton(page, 'demo').click();
  await questionDialog(page)
    .getByRole('button', { name: 'Discard edits' })
    .click();
  await expect(page.getByTestId('editor-heading')).toHaveText('demo');
  await openConfig(page, 'edit-discard');
  await expect(page.getByTestId('no-links')).toBeVisible();
});

test('the open config is remembered across reloads', async ({
  page,
  baseURL,
}) => {
  await openApp(page, baseURL!);
  await openConfig(page, 'demo');
  await expect(page).toHaveURL(/\?config=demo$/);
  await page.goto(`${baseURL}/`);
  await expect(page.locator('body')).toHaveAttribute('data-ready', 'true');
  await expect(page.getByTestId('editor-heading')).toHaveText('demo');
});

test('macros, search patterns and settings are edited with the server rules', async ({
  page,
  baseURL,
  request,
}, testInfo) => {
  const name = 'edit-parts';
  await openApp(page, baseURL!);
  await createConfig(page, name);
  await addLink(page, {
    id: 'bridge',
    label: 'A bridge',
    url: 'https://example.com/bridge',
    tags: ['big'],
  });

  await page.getByTestId('macros').locator('summary').click();
  await page.getByLabel('Macro name').fill('my-macro');
  await expect(page.locator('#macro-name-problem')).toHaveText(/"without"/);
  await page.getByLabel('Macro name').fill('bigones');
  await page.getByLabel('Macro expression').fill('.big');
  await page.getByRole('button', { name: 'Add macro' }).click();
  await expect(page.getByTestId('macros').locator('.entry')).toHaveCount(1);

  await page.getByTestId('search-patterns').locator('summary').click();
  await page.getByLabel('Pattern key').fill('bridges');
  await page.getByLabel('Regular expression', { exact: true }).fill('(a+)+');
  await expect(page.locator('#pattern-regex-problem')).toHaveText(
    /can take very long to match/,
  );
  await page.getByLabel('Regular expression', { exact: true }).fill('bridge');
  await page.getByLabel('Fields').fill('l');
  await page.getByLabel('Sort').selectOption('alpha');
  await page.getByRole('button', { name: 'Add pattern' }).click();
  await expect(
    page.getByTestId('search-patterns').locator('.entry'),
  ).toHaveCount(1);

  await page.getByTestId('settings').locator('summary').click();
  const settings = page.getByLabel('Settings (JSON)');
  await settings.fill('{"listType": ');
  await expect(page.locator('#settings-json-problem')).toHaveText(
    /^This is not valid JSON/,
  );
  await page.getByTestId('save-config').click();
  await expect(page.getByTestId('save-problem')).toHaveText(
    /Not saved: the settings are not valid/,
  );
  await expect(settings).toBeFocused();
  await settings.fill('{"listType": "ol"}');
  await expect(page.locator('#settings-json-problem')).toHaveCount(0);
  await screenshot(page, testInfo, 'config-parts');
  await saveConfig(page);

  await expect
    .poll(
      async () =>
        (await serverEntry(request, `${baseURL}/configs/${name}`))?.config,
    )
    .toEqual({
      allLinks: {
        bridge: {
          url: 'https://example.com/bridge',
          label: 'A bridge',
          tags: ['big'],
        },
      },
      macros: { bigones: { linkItems: '.big' } },
      searchPatterns: {
        bridges: { pattern: 'bridge', options: { fields: 'l', sort: 'alpha' } },
      },
      settings: { listType: 'ol' },
    });

  // The expression help offers this config's own macros and patterns to try.
  await page.getByText('Expression syntax and examples').click();
  await page
    .getByTestId('expression-help')
    .getByRole('button', { name: '@bigones' })
    .click();
  await expect(page.getByLabel('Expression', { exact: true })).toHaveValue(
    '@bigones',
  );
  await expect(page.getByTestId('query-result')).toHaveCount(1);
});

test('a search the server cannot run says why beside the search field', async ({
  page,
  baseURL,
}) => {
  await openApp(page, baseURL!);
  const field = page.getByLabel('Search for');
  await page.getByLabel('Search by').selectOption('regex');
  await field.fill('(bridge');
  await expect(page.getByTestId('search-problem')).toHaveText(
    /This is not a valid regular expression/,
  );
  await expect(field).toHaveAttribute('aria-invalid', 'true');
  // Valid for the browser, refused by the server's linear-time engine: its reason is shown here too.
  await field.fill('bri(?=dge)');
  await expect(page.getByTestId('search-problem')).toHaveCount(0);
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  await expect(page.getByTestId('search-problem')).toHaveText(
    /The server cannot search for this: regex is not a valid regular expression/,
  );
  await expect(page.getByTestId('status-problem')).toHaveCount(0);
  await field.fill('bridge');
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  await expect(page.getByTestId('search-result').first()).toBeVisible();
  await expect(page.getByTestId('search-problem')).toHaveCount(0);
});
