/**
 * Every screen of the page passes an axe scan for WCAG 2.0 and 2.1, levels A and AA, with no
 * violation: at a desktop and a phone width, in the light and the dark scheme, with forms showing
 * their problems, with each dialog open, offline, with a change the server refused, with the notices
 * of a change made elsewhere, the conflicts panel and expression diagnostics. (The token screens are
 * scanned in tokens.spec.ts.)
 */
import type { Page } from '@playwright/test';
import {
  addLinkAndSave,
  configButton,
  createConfig,
  deleteOverRest,
  editLink,
  expectAccessible,
  expectLive,
  fillLinkForm,
  linkRow,
  openApp,
  openConfig,
  pendingCount,
  putOverRest,
  questionDialog,
  saveConfig,
  screenshot,
} from '../support/app.js';
import { expect, test } from '../support/fixtures.js';

/** Opens demo with the help, an expression's results and a search's results on screen. */
async function showDemoWithResults(page: Page): Promise<void> {
  await openConfig(page, 'demo');
  await page.getByText('Expression syntax and examples').click();
  await page.getByLabel('Expression', { exact: true }).fill('.bridge *sort*');
  await page.getByRole('button', { name: 'Run expression' }).click();
  await expect(page.getByTestId('query-result').first()).toBeVisible();
  await page.getByLabel('Search for').fill('coffee');
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  await expect(page.getByTestId('search-result').first()).toBeVisible();
}

/** Opens every section of the open config and puts a problem in each form. */
async function showFormProblems(page: Page): Promise<void> {
  await fillLinkForm(page, { id: 'a-b', url: 'javascript:alert(1)' });
  await page.getByTestId('macros').locator('summary').click();
  await page.getByLabel('Macro name').fill('my macro');
  await page.getByTestId('search-patterns').locator('summary').click();
  await page.getByLabel('Regular expression', { exact: true }).fill('(a+)+');
  await page.getByTestId('settings').locator('summary').click();
  await page.getByLabel('Settings (JSON)').fill('{');
  await expect(page.locator('#settings-json-problem')).toBeVisible();
}

for (const { width, height } of [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
]) {
  test.describe(`at ${width} px`, () => {
    test.use({ viewport: { width, height } });

    test('the start, a config with results, forms with problems and the question dialog', async ({
      page,
      baseURL,
    }, testInfo) => {
      test.slow();
      await openApp(page, baseURL!);
      await expectAccessible(page, testInfo, `${width}-start`);

      await showDemoWithResults(page);
      await expectAccessible(page, testInfo, `${width}-demo-results`);

      await createConfig(page, `a11y-${width}`);
      await showFormProblems(page);
      await page.getByTestId('link-submit').click();
      await expectAccessible(page, testInfo, `${width}-form-problems`);

      await fillLinkForm(page, { id: 'one', url: 'https://example.com/1' });
      await page.getByTestId('link-submit').click();
      await expect(linkRow(page, 'one')).toBeVisible();
      await fillLinkForm(page, { id: 'one', url: 'https://example.com/2' });
      await page.getByTestId('link-submit').click();
      await expect(questionDialog(page)).toBeVisible();
      await expectAccessible(page, testInfo, `${width}-question-dialog`);
      await page.keyboard.press('Escape');
      await expect(questionDialog(page)).toBeHidden();
    });
  });
}

test.describe('in the dark scheme', () => {
  test.use({ colorScheme: 'dark' });

  test('a config with results and forms with problems', async ({
    page,
    baseURL,
  }, testInfo) => {
    test.slow();
    await openApp(page, baseURL!);
    expect(
      await page.evaluate(
        () => matchMedia('(prefers-color-scheme: dark)').matches,
      ),
    ).toBe(true);
    await showDemoWithResults(page);
    await expectAccessible(page, testInfo, 'dark-demo-results');
    await createConfig(page, 'a11y-dark');
    await showFormProblems(page);
    await expectAccessible(page, testInfo, 'dark-form-problems');
  });
});

test('offline, with a config only on the server, and a refused change', async ({
  page,
  context,
  baseURL,
  request,
}, testInfo) => {
  test.slow();
  const put = await request.put(`${baseURL}/configs/a11y-server-only`, {
    data: { allLinks: { s: { url: 'https://example.com/s' } } },
  });
  expect(put.status()).toBe(204);
  await page.route('**/configs/a11y-refused', (route) =>
    route.request().method() === 'PUT'
      ? route.fulfill({
          status: 422,
          contentType: 'application/json',
          body: JSON.stringify({ error: 'refused by the test' }),
        })
      : route.continue(),
  );
  await openApp(page, baseURL!);
  await createConfig(page, 'a11y-refused');
  await addLinkAndSave(page, { id: 'r', url: 'https://example.com/r' });
  await expect(page.getByTestId('dead-letter')).toBeVisible();
  await expectAccessible(page, testInfo, 'dead-letter');

  await context.setOffline(true);
  await expect(page.getByTestId('status-server')).toHaveText(/offline/);
  await expect(
    page.locator(
      '[data-config-name="a11y-server-only"] [data-testid="config-marker"]',
    ),
  ).toHaveText('not available offline');
  await expectAccessible(page, testInfo, 'offline');
  await context.setOffline(false);
});

for (const variant of [
  { label: 'light, desktop', scheme: 'light', width: 1280, height: 800 },
  { label: 'dark, phone', scheme: 'dark', width: 390, height: 844 },
] as const) {
  test.describe(`${variant.label}`, () => {
    test.use({
      colorScheme: variant.scheme,
      viewport: { width: variant.width, height: variant.height },
    });

    test('changes made elsewhere, the conflicts panel and expression diagnostics', async ({
      page,
      context,
      baseURL,
    }, testInfo) => {
      test.slow();
      const tag = `${variant.scheme}-${variant.width}`;
      const link = { url: 'https://example.com/1', label: 'First' };
      const edited = `a11y-edited-${tag}`;
      const clash = `a11y-conflict-${tag}`;
      await putOverRest(baseURL!, edited, { allLinks: { first: link } });
      await putOverRest(baseURL!, clash, { allLinks: { first: link } });
      await openApp(page, baseURL!);
      await expectLive(page);

      // A newer server version changing what the person's unsaved edits change too: the notice.
      await openConfig(page, edited);
      await editLink(page, 'first', { url: 'https://example.com/draft' });
      await putOverRest(baseURL!, edited, {
        allLinks: {
          first: { ...link, url: 'https://example.com/other' },
          other: { url: 'https://example.com/o' },
        },
      });
      const notice = page.getByTestId('remote-change-notice');
      await expect(notice).toHaveAttribute('data-remote', 'changed');
      await expectAccessible(page, testInfo, `${tag}-remote-change`);
      await screenshot(page, testInfo, `${tag}-remote-change`);

      // The config deleted elsewhere: the other notice.
      await deleteOverRest(baseURL!, edited);
      await expect(notice).toHaveAttribute('data-remote', 'removed');
      await expectAccessible(page, testInfo, `${tag}-remote-removed`);
      await notice.getByRole('button', { name: 'Keep mine' }).click();

      // A conflict: saved offline while another client changed the server's version.
      await configButton(page, clash).click();
      await questionDialog(page)
        .getByRole('button', { name: 'Discard edits' })
        .click();
      await expect(page.getByTestId('editor-heading')).toHaveText(clash);
      await context.setOffline(true);
      await editLink(page, 'first', { label: 'Mine' });
      await saveConfig(page);
      await expect.poll(() => pendingCount(page)).toBe(1);
      await putOverRest(baseURL!, clash, {
        allLinks: {
          first: { ...link, label: 'Renamed' },
          theirs: { url: 'https://example.com/theirs' },
        },
      });
      await context.setOffline(false);
      await expect(page.getByTestId('conflicts')).toBeVisible();
      await expect(page.getByTestId('conflict-row')).toContainText('first');

      // Expression diagnostics under the field, at the same time.
      await page
        .getByLabel('Expression', { exact: true })
        .fill('(.first + @nosuch');
      await expect(page.getByTestId('diagnostic').first()).toBeVisible();
      await expectAccessible(page, testInfo, `${tag}-conflict-diagnostics`);
      await screenshot(page, testInfo, `${tag}-conflict-diagnostics`);

      await page
        .getByTestId('conflicts')
        .getByRole('button', { name: 'Keep mine' })
        .click();
      await expect(page.getByTestId('conflicts')).toHaveCount(0);
    });
  });
}
