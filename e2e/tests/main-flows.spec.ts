/**
 * The page's main flows as a person uses them, at a desktop width (1280 px) and a phone width
 * (390 px): see the names, open a config, run an expression, search and open a result at its link;
 * create a config, add/edit/delete links, save, delete the config. A screenshot of each step is kept
 * as an artifact of the test.
 */
import type { Page } from '@playwright/test';
import {
  addLink,
  CONNECTED,
  configButton,
  deleteOpenConfig,
  expectNoHorizontalOverflow,
  expectNothingPending,
  linkRow,
  openApp,
  openConfig,
  saveConfig,
  screenshot,
  serverLinks,
} from '../support/app.js';
import { expect, test } from '../support/fixtures.js';

/** The tags shown as chips in a result or row. */
const chips = (page: Page, selector: string) =>
  page
    .locator(selector)
    .evaluateAll((items) =>
      items.map((item) =>
        [...item.querySelectorAll('.chip')].map((chip) => chip.textContent),
      ),
    );

for (const { width, height } of [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
]) {
  test.describe(`at ${width} px`, () => {
    test.use({ viewport: { width, height } });

    test('open, query and search the seeded demo config', async ({
      page,
      baseURL,
    }, testInfo) => {
      await openApp(page, baseURL!);
      await expect(configButton(page, 'demo')).toBeVisible();
      await expect(page.getByTestId('status-server')).toHaveText(CONNECTED);
      await expectNothingPending(page);
      await screenshot(page, testInfo, `${width}-1-config-list`);

      await openConfig(page, 'demo');
      await expect(page.getByTestId('link-row').first()).toBeVisible();
      await expectNoHorizontalOverflow(page);
      await screenshot(page, testInfo, `${width}-2-open-demo`);

      await page.getByLabel('Expression', { exact: true }).fill('.car');
      await page.getByRole('button', { name: 'Run expression' }).click();
      await expect(page.getByTestId('query-summary')).toHaveText(
        /\d+ links? match(es)? \.car in “demo”\./,
      );
      const results = page.getByTestId('query-result');
      await expect(results.first()).toBeVisible();
      for (const tags of await chips(page, '[data-testid="query-result"]'))
        expect(tags).toContain('car');
      // Result URLs are real links that open in a new tab without handing over this page.
      const first = results.first().getByRole('link');
      await expect(first).toHaveAttribute('href', /^https:\/\//);
      await expect(first).toHaveAttribute('rel', 'noopener noreferrer');
      await expect(first).toHaveAttribute('target', '_blank');
      await screenshot(page, testInfo, `${width}-3-query`);

      await page.getByLabel('Search by').selectOption('tag');
      await page.getByLabel('Search for').fill('bridge');
      await page.getByRole('button', { name: 'Search', exact: true }).click();
      await expect(page.getByTestId('search-summary')).toHaveText(
        /results? in \d+ configs? searched\./,
      );
      const hits = page.getByTestId('search-result');
      await expect(hits.first()).toBeVisible();
      for (const tags of await chips(page, '[data-testid="search-result"]'))
        expect(tags).toContain('bridge');
      await expect(hits.first()).toHaveAttribute('data-config', 'demo');
      await expectNoHorizontalOverflow(page);
      await screenshot(page, testInfo, `${width}-4-search`);
    });

    test('a search result opens its config at that link', async ({
      page,
      baseURL,
      request,
    }, testInfo) => {
      const name = `found-${width}`;
      const put = await request.put(`${baseURL}/configs/${name}`, {
        data: {
          allLinks: {
            first: { url: 'https://example.com/1' },
            needle: {
              url: 'https://example.com/needle',
              label: `Needle ${width}`,
            },
          },
        },
      });
      expect(put.status()).toBe(204);
      await openApp(page, baseURL!);
      await openConfig(page, 'demo');

      await page.getByLabel('Search for').fill(`Needle ${width}`);
      await page.getByLabel('Search for').press('Enter');
      const hit = page.locator(
        `[data-testid="search-result"][data-config="${name}"]`,
      );
      await expect(hit).toHaveCount(1);
      await hit
        .getByRole('button', { name: `Open in ${name} at link needle` })
        .click();
      await expect(page.getByTestId('editor-heading')).toHaveText(name);
      const row = linkRow(page, 'needle');
      await expect(row).toHaveAttribute('data-target', '');
      await expect(row).toBeFocused();
      await expect(row).toBeInViewport();
      await screenshot(page, testInfo, `${width}-5-opened-result`);
    });

    test('create a config, add, edit and delete links, save, then delete it', async ({
      page,
      baseURL,
      request,
    }, testInfo) => {
      const name = `flows-${width}`;
      await openApp(page, baseURL!);

      await page.getByLabel('New config name').fill(name);
      await page.getByLabel('New config name').press('Enter');
      await expect(page.getByTestId('editor-heading')).toHaveText(name);
      await expect(configButton(page, name)).toBeVisible();
      // A new config is empty: the page is ready for its first link.
      await expect(page.getByLabel('Id', { exact: true })).toBeFocused();

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
      await expectNoHorizontalOverflow(page);
      await screenshot(page, testInfo, `${width}-6-edit-draft`);

      await page.getByRole('button', { name: 'Edit link docs' }).click();
      await expect(page.getByTestId('link-form-legend')).toHaveText(
        'Edit link docs',
      );
      await expect(page.getByLabel('Label', { exact: true })).toBeFocused();
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
      await expect(page.getByTestId('draft-state')).toHaveText(
        'Saved in this browser and on the server.',
      );
      await screenshot(page, testInfo, `${width}-7-saved`);

      await page.getByLabel('Expression', { exact: true }).fill('.work');
      await page.getByRole('button', { name: 'Run expression' }).click();
      await expect(page.getByTestId('query-result')).toHaveCount(1);
      await expect(page.getByTestId('query-result')).toHaveAttribute(
        'data-link-id',
        'docs',
      );

      await deleteOpenConfig(page);
      await expect(configButton(page, name)).toHaveCount(0);
      await expectNothingPending(page);
      await expect
        .poll(() => serverLinks(request, { baseURL: baseURL!, name }))
        .toBeNull();
      await screenshot(page, testInfo, `${width}-8-deleted`);
    });
  });
}
