/**
 * The page's main flows, as a person uses them: see the names, open a config, run an expression,
 * search, create a config, add/edit/delete links, save, delete the config. A screenshot of each step
 * is kept as an artifact of the test.
 */
import {
  deleteOpenConfig,
  addLink,
  expectNothingPending,
  linkRow,
  openApp,
  openConfig,
  saveConfig,
  screenshot,
  serverLinks,
} from '../support/app.js';
import { expect, test } from '../support/fixtures.js';

test('open, query and search the seeded demo config', async ({
  page,
  baseURL,
}, testInfo) => {
  await openApp(page, baseURL!);
  await expect(
    page.getByTestId('config-list').getByRole('button', { name: 'demo' }),
  ).toBeVisible();
  await expect(page.getByTestId('status-server')).toHaveText(
    'The server is reachable.',
  );
  await expectNothingPending(page);
  await screenshot(page, testInfo, '1-config-list');

  await openConfig(page, 'demo');
  await expect(page.getByTestId('link-row').first()).toBeVisible();
  await screenshot(page, testInfo, '2-open-demo');

  await page.getByLabel('Expression (against the open config)').fill('.car');
  await page.getByRole('button', { name: 'Run expression' }).click();
  const results = page.getByTestId('query-result');
  await expect(page.getByTestId('query-summary')).toHaveText(
    /links? match(es)? \.car in "demo"/,
  );
  await expect(results.first()).toBeVisible();
  for (const text of await results.allTextContents())
    expect(text).toMatch(/\[.*\bcar\b.*\]/);
  await screenshot(page, testInfo, '3-query');

  await page.getByLabel('Search by').selectOption('tag');
  await page.getByLabel('Search for').fill('bridge');
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  await expect(page.getByTestId('search-summary')).toHaveText(
    /results? \(searched \d+ configs, \d+ links\)/,
  );
  const hits = page.getByTestId('search-result');
  await expect(hits.first()).toBeVisible();
  for (const text of await hits.allTextContents())
    expect(text).toMatch(/\[.*\bbridge\b.*\]/);
  await expect(hits.first()).toHaveAttribute('data-config', 'demo');
  await screenshot(page, testInfo, '4-search');
});

test('create a config, add, edit and delete links, save, then delete it', async ({
  page,
  baseURL,
  request,
}, testInfo) => {
  const name = 'flows';
  await openApp(page, baseURL!);

  // Keyboard only: focus the name field, type, Enter.
  await page.getByLabel('New config name').focus();
  await page.keyboard.type(name);
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('editor-heading')).toHaveText(
    `Config "${name}"`,
  );
  await expect(
    page.getByTestId('config-list').getByRole('button', { name }),
  ).toBeVisible();

  await addLink(page, {
    id: 'docs',
    label: 'Docs',
    url: 'https://example.com/docs',
    tags: ['work', 'read'],
  });
  await addLink(page, {
    id: 'blog',
    label: 'Blog',
    url: 'https://example.com/blog',
    tags: ['read'],
  });
  await expect(page.getByTestId('draft-state')).toHaveText(/Unsaved edits/);
  await screenshot(page, testInfo, '5-edit-draft');

  await page.getByRole('button', { name: 'Edit link docs' }).click();
  await expect(page.getByTestId('link-form-legend')).toHaveText(
    'Edit link docs',
  );
  await page.getByLabel('Label', { exact: true }).fill('Team docs');
  await page.getByRole('button', { name: 'Update link' }).click();
  await expect(linkRow(page, 'docs')).toContainText('Team docs');
  await page.getByRole('button', { name: 'Delete link blog' }).click();
  await expect(linkRow(page, 'blog')).toHaveCount(0);

  await saveConfig(page);
  await expectNothingPending(page);
  await expect
    .poll(() => serverLinks(request, { baseURL: baseURL!, name }))
    .toEqual({
      docs: {
        url: 'https://example.com/docs',
        label: 'Team docs',
        tags: ['work', 'read'],
      },
    });
  await screenshot(page, testInfo, '6-saved');

  await page.getByLabel('Expression (against the open config)').fill('.work');
  await page.getByRole('button', { name: 'Run expression' }).click();
  await expect(page.getByTestId('query-result')).toHaveCount(1);
  await expect(page.getByTestId('query-result')).toHaveAttribute(
    'data-link-id',
    'docs',
  );

  await deleteOpenConfig(page);
  await expect(
    page.getByTestId('config-list').getByRole('button', { name }),
  ).toHaveCount(0);
  await expectNothingPending(page);
  await expect
    .poll(() => serverLinks(request, { baseURL: baseURL!, name }))
    .toBeNull();
  await screenshot(page, testInfo, '7-deleted');
});
