/**
 * The layout from 360 px to a wide screen: no sideways scrolling at 360 px on any screen, ids and
 * tags never broken inside a word (tags are chips), row actions on one line, and on a wide screen
 * the open config (not the side panel) gets the width.
 */
import type { Page } from '@playwright/test';
import {
  createConfig,
  expectNoHorizontalOverflow,
  fillLinkForm,
  openApp,
  openConfig,
  questionDialog,
  screenshot,
} from '../support/app.js';
import { expect, test } from '../support/fixtures.js';

/** Words that must stay whole: ids and chips each fit on one line. */
async function expectWordsWhole(page: Page): Promise<void> {
  const broken = await page.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>('#editor .link-id, .chip')]
      .filter((element) => {
        const style = getComputedStyle(element);
        const line = parseFloat(style.lineHeight) || 20;
        // Taller than one line means the browser wrapped it inside the word.
        return element.getBoundingClientRect().height > line * 1.5;
      })
      .map((element) => element.textContent),
  );
  expect(broken, 'ids or tags wrapped inside a word').toEqual([]);
}

/** The Edit and Delete buttons of every row share one line. */
async function expectRowActionsOnOneLine(page: Page): Promise<void> {
  const split = await page
    .locator('[data-testid="link-row"] .row-actions')
    .evaluateAll(
      (groups) =>
        groups.filter((group) => {
          const tops = [...group.querySelectorAll('button')].map(
            (button) => button.getBoundingClientRect().top,
          );
          return Math.max(...tops) - Math.min(...tops) > 1;
        }).length,
    );
  expect(split, 'rows whose actions wrap').toBe(0);
}

test.describe('at 360 px', () => {
  test.use({ viewport: { width: 360, height: 740 } });

  test('no screen scrolls sideways, and words stay whole', async ({
    page,
    baseURL,
  }, testInfo) => {
    test.slow();
    await openApp(page, baseURL!);
    await expectNoHorizontalOverflow(page);

    await openConfig(page, 'demo');
    await expectNoHorizontalOverflow(page);
    await expectWordsWhole(page);
    await expectRowActionsOnOneLine(page);

    await page.getByText('Expression syntax and examples').click();
    await page.getByLabel('Expression', { exact: true }).fill('.nyc *sort*');
    await page.getByRole('button', { name: 'Run expression' }).click();
    await expect(page.getByTestId('query-result').first()).toBeVisible();
    await page.getByLabel('Search by').selectOption('regex');
    await page.getByLabel('Search for').fill('wiki/San_Francisco');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await expect(page.getByTestId('search-result').first()).toBeVisible();
    await expectNoHorizontalOverflow(page);
    await screenshot(page, testInfo, '360-demo-results');

    await createConfig(page, 'layout-a-rather-long-config-name-for-a-phone');
    await fillLinkForm(page, {
      id: 'averyveryverylonglinkidthatkeepsgoingandgoing',
      url: 'example.com/a/very/long/path/that/has/no/spaces/at/all/anywhere',
      tags: ['one', 'two-three'],
    });
    await page.getByTestId('link-submit').click();
    await page.getByTestId('macros').locator('summary').click();
    await page.getByTestId('search-patterns').locator('summary').click();
    await page.getByTestId('settings').locator('summary').click();
    await expectNoHorizontalOverflow(page);
    await screenshot(page, testInfo, '360-form-problems');

    await page.getByLabel('Tags', { exact: true }).fill('one');
    await page
      .getByLabel('URL', { exact: true })
      .fill('https://example.com/a/very/long/path/without/any/spaces');
    await page.getByTestId('link-submit').click();
    await expect(page.getByTestId('link-row')).toHaveCount(1);
    await expectNoHorizontalOverflow(page);
    await expectWordsWhole(page);
    await expectRowActionsOnOneLine(page);

    await page.getByTestId('open-settings').click();
    await expectNoHorizontalOverflow(page);
    await page.keyboard.press('Escape');
    await page.getByTestId('delete-config').click();
    await expect(questionDialog(page)).toBeVisible();
    await expectNoHorizontalOverflow(page);
    await screenshot(page, testInfo, '360-question');
  });
});

test('on a wide screen the open config gets the width', async ({
  page,
  baseURL,
}) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await openApp(page, baseURL!);
  await openConfig(page, 'demo');
  const editor = await page.getByTestId('editor').boundingBox();
  const side = await page.locator('nav.sidebar').boundingBox();
  expect(editor!.width).toBeGreaterThan(side!.width * 3);
  await expectWordsWhole(page);
  await expectRowActionsOnOneLine(page);
  await expectNoHorizontalOverflow(page);
});
