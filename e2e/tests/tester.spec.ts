/**
 * The expression tester beside the links runs the shared engine in the page on the draft: offline,
 * with an unsaved link, it shows what the edit does, as a list and as a menu preview. Unknown tags and
 * macros get "did you mean" (with a fix to apply) and a hint that names are case-sensitive.
 */
import {
  addLink,
  expectAccessible,
  expectNoHorizontalOverflow,
  openApp,
  openConfig,
  putOverRest,
  screenshot,
} from '../support/app.js';
import { bigConfig } from '../support/big-config.js';
import { expect, test } from '../support/fixtures.js';

const config = {
  allLinks: {
    a: {
      url: 'https://example.com/a',
      label: 'Alpha bridge',
      tags: ['nyc', 'bridge'],
    },
    b: { url: 'https://example.com/b', label: 'Beta', tags: ['nyc'] },
    c: { url: 'https://example.com/c', label: 'Gamma', tags: ['paris'] },
  },
  macros: { city: { linkItems: '.nyc | .paris' } },
  settings: { listType: 'ol' },
};

for (const width of [1280, 390]) {
  test.describe(`at ${width} px`, () => {
    test.use({ viewport: { width, height: width === 390 ? 844 : 900 } });

    test('offline, the tester shows what an unsaved link does, as a menu', async ({
      page,
      context,
      baseURL,
    }, testInfo) => {
      const name = `tester-${width}`;
      await putOverRest(baseURL!, name, config);
      await openApp(page, baseURL!);
      await openConfig(page, name);
      await context.setOffline(true);
      await addLink(page, {
        id: 'd',
        label: 'Delta',
        url: 'https://example.com/d',
        tags: ['nyc'],
      });
      const field = page.getByLabel('Expression', { exact: true });
      await field.fill('.nyc');
      await expect(page.getByTestId('tester-scope')).toContainText(
        'unsaved edits included',
      );
      await expect(page.getByTestId('query-summary')).toContainText(
        '3 links match .nyc',
      );
      const menu = page.getByTestId('menu-preview');
      // The config asks for a numbered list; labels are the links.
      await expect(menu.locator('ol > li')).toHaveCount(3);
      await expect(menu.getByRole('link', { name: 'Delta' })).toHaveAttribute(
        'href',
        'https://example.com/d',
      );
      await expect(page.getByTestId('check-unavailable')).toBeVisible();
      await expectNoHorizontalOverflow(page);
      await screenshot(page, testInfo, `${width}-tester-offline`);
      await expectAccessible(page, testInfo, `${width}-tester`);

      // Did you mean: one edit away, with the fix to apply.
      await field.fill('.nyx');
      const hint = page.getByTestId('did-you-mean');
      await expect(hint).toHaveText(/Did you mean \.nyc\?/);
      await hint.getByRole('button', { name: 'Use .nyc' }).click();
      await expect(field).toHaveValue('.nyc');
      await expect(field).toBeFocused();
      await expect(hint).toHaveCount(0);
      await field.fill('.bridge | @cty');
      await expect(hint).toHaveText(/Did you mean @city\?/);
      // Tags are case-sensitive: said when only the case differs.
      await field.fill('.NYC');
      await expect(hint).toHaveText(
        /Tags are case-sensitive: this config has \.nyc\./,
      );
      await screenshot(page, testInfo, `${width}-tester-did-you-mean`);
      await expectAccessible(page, testInfo, `${width}-tester-hint`);
    });
  });
}

test('on a wide screen the tester stands beside a long list of links', async ({
  page,
  baseURL,
}) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await putOverRest(baseURL!, 'tester-beside', bigConfig(500));
  await openApp(page, baseURL!);
  await openConfig(page, 'tester-beside');
  const tester = page.getByTestId('tester');
  const table = page.getByTestId('links-table');
  await expect(tester).toBeInViewport();
  const testerBox = (await tester.boundingBox())!;
  const tableBox = (await table.boundingBox())!;
  expect(testerBox.x).toBeGreaterThanOrEqual(tableBox.x + tableBox.width);
  // Still there after scrolling down the links.
  await page.getByTestId('link-row').last().scrollIntoViewIfNeeded();
  await expect(tester).toBeInViewport();
});
