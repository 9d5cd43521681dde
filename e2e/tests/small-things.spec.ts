/**
 * The small things of the everyday-work review, each fixed: old search results never stand under a new
 * problem; the search summary counts configs, not "links searched" equal to the hits; "Open in …"
 * shows the link clear of the sticky editor bar; a long label does not widen the page; a config that
 * cannot be opened offline leaves the open one alone; running an expression offline works; and a
 * welcome line says what a link config is.
 */
import {
  addLink,
  configButton,
  configMarker,
  expectNoHorizontalOverflow,
  linkRow,
  openApp,
  openConfig,
  putOverRest,
} from '../support/app.js';
import { bigConfig } from '../support/big-config.js';
import { expect, test } from '../support/fixtures.js';

test('a welcome line says what a link config is', async ({ page, baseURL }) => {
  await page.addInitScript(() => localStorage.clear());
  await openApp(page, baseURL!);
  await expect(page.getByTestId('welcome')).toContainText(
    'A link config is a named set of links',
  );
});

test('search: old results go when a new problem shows; the summary counts configs', async ({
  page,
  baseURL,
}) => {
  await openApp(page, baseURL!);
  await page.getByLabel('Search by').selectOption('regex');
  const text = page.getByLabel('Search for');
  await text.fill('bridge');
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  await expect(page.getByTestId('search-result').first()).toBeVisible();
  await expect(page.getByTestId('search-summary')).toHaveText(
    /\d+ results? in \d+ configs? searched\./,
  );
  await expect(page.getByTestId('search-summary')).not.toContainText('links');
  await text.fill('bridge(');
  await expect(page.getByTestId('search-problem')).toBeVisible();
  await expect(page.getByTestId('search-result')).toHaveCount(0);
  await expect(page.getByTestId('search-summary')).toHaveText('');
});

test('"Open in …" shows the link below the sticky editor bar', async ({
  page,
  baseURL,
}) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await putOverRest(baseURL!, 'small-open-in', bigConfig(120));
  await openApp(page, baseURL!);
  await page.getByLabel('Search by').selectOption('regex');
  await page.getByLabel('Search for').fill('example.com/[a-z]+/119$');
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  await page
    .getByRole('button', { name: 'Open in small-open-in at link l119' })
    .click();
  const row = linkRow(page, 'l119');
  await expect(row).toBeFocused();
  await expect(row).toBeInViewport();
  const rowTop = (await row.boundingBox())!.y;
  const bar = (await page.locator('.editor-bar').boundingBox())!;
  expect(rowTop).toBeGreaterThanOrEqual(bar.y + bar.height - 1);
});

test('a long label does not widen the page', async ({ page, baseURL }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await putOverRest(baseURL!, 'small-long-label', { allLinks: {} });
  await openApp(page, baseURL!);
  await openConfig(page, 'small-long-label');
  await addLink(page, {
    id: 'long',
    label: 'A'.repeat(200),
    url: 'https://example.com/long',
  });
  await expectNoHorizontalOverflow(page);
});

test('a config not available offline leaves the open one alone', async ({
  page,
  context,
  baseURL,
}) => {
  await putOverRest(baseURL!, 'small-server-only', {
    allLinks: { s: { url: 'https://example.com/s' } },
  });
  await openApp(page, baseURL!);
  await openConfig(page, 'demo');
  await context.setOffline(true);
  await expect(configMarker(page, 'small-server-only')).toHaveText(
    'not available offline',
  );
  await configButton(page, 'small-server-only').click();
  await expect(page.getByTestId('list-message')).toContainText(
    '“demo” stays open',
  );
  await expect(page.getByTestId('editor-heading')).toHaveText('demo');
  // Expressions still run, offline, on the open config; no problem names anything wrongly.
  await page.getByLabel('Expression', { exact: true }).fill('.bridge');
  await page.getByRole('button', { name: 'Run expression' }).click();
  await expect(page.getByTestId('query-problem')).toHaveCount(0);
  await expect(page.getByTestId('query-summary')).toContainText('.bridge');
});
