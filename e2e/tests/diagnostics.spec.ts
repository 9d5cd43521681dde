/**
 * Expression diagnostics as you type: the engine in the page finds them at once on the draft, and a
 * moment after typing stops the page also asks the server (`POST /expressions/check`); what either
 * found shows under the field (once), pointing at the part concerned. Fixed, the message goes; without
 * the server the page says so quietly and typing and running go on.
 */
import { openApp, openConfig } from '../support/app.js';
import { expect, test } from '../support/fixtures.js';

test('a mistake in the expression is shown under the field and goes away when fixed', async ({
  page,
  baseURL,
}) => {
  await openApp(page, baseURL!);
  await openConfig(page, 'demo');
  const field = page.getByLabel('Expression', { exact: true });
  const diagnostics = page.locator('#expression-diagnostics');
  await expect(field).toHaveAttribute(
    'aria-describedby',
    /\bexpression-diagnostics\b/,
  );

  const checked = page.waitForRequest(
    (request) =>
      request.method() === 'POST' &&
      new URL(request.url()).pathname === '/expressions/check' &&
      request.postDataJSON()?.expression === '.bridge + @nosuch',
  );
  await field.pressSequentially('.bridge + @nosuch');
  expect((await checked).postDataJSON()).toEqual({
    expression: '.bridge + @nosuch',
    configName: 'demo',
  });
  const all = diagnostics.getByTestId('diagnostic');
  // The macro is removed, which leaves the `+` without an operand: a second warning.
  const item = all.and(page.locator('[data-code="unknown-macro"]'));
  await expect(item).toHaveCount(1);
  await expect(item).toContainText('Warning');
  await expect(item).toContainText('unknown macro `@nosuch`');
  // The part the diagnostic is about is marked in the expression.
  await expect(item.locator('mark')).toHaveText('@nosuch');
  // Nothing of this reaches the page-wide status.
  await expect(page.getByTestId('status-problem')).toHaveCount(0);

  await field.fill('.bridge');
  await expect(all).toHaveCount(0);

  // Another mistake: a parenthesis left open.
  await field.fill('(.bridge');
  await expect(all).toHaveAttribute('data-code', 'unclosed-parenthesis');
  await field.press('End');
  await field.pressSequentially(')');
  await expect(all).toHaveCount(0);
  // Running is never held up by the check.
  await page.getByRole('button', { name: 'Run expression' }).click();
  await expect(page.getByTestId('query-result').first()).toBeVisible();
});

test('without the server the engine in the page still checks and runs; the page says the server checks later', async ({
  page,
  context,
  baseURL,
}) => {
  await openApp(page, baseURL!);
  await openConfig(page, 'demo');
  const field = page.getByLabel('Expression', { exact: true });
  const diagnostics = page.locator('#expression-diagnostics');

  await context.setOffline(true);
  await field.fill('.bridge + @nosuch');
  await expect(
    diagnostics.locator('[data-code="unknown-macro"]'),
  ).toHaveAttribute('data-source', 'local');
  await expect(page.getByTestId('check-unavailable')).toHaveText(
    'Checked in this browser; the server checks too when it can be reached.',
  );
  await expect(field).toBeEditable();
  // Running works offline: the engine runs here.
  await page.getByRole('button', { name: 'Run expression' }).click();
  await expect(page.getByTestId('query-problem')).toHaveCount(0);
  await expect(page.getByTestId('query-result').first()).toBeVisible();

  await context.setOffline(false);
  await expect(page.getByTestId('check-unavailable')).toHaveCount(0);
  await expect(
    diagnostics.locator('[data-code="unknown-macro"]'),
  ).toContainText('@nosuch');
});

test('the check answers for what the field holds now, not for what it held before', async ({
  page,
  baseURL,
}) => {
  await openApp(page, baseURL!);
  await openConfig(page, 'demo');
  const field = page.getByLabel('Expression', { exact: true });
  // The first check is slow to answer; by the time it would, the field holds something else.
  let releaseSlow: () => void = () => undefined;
  const slowSeen = new Promise<void>((seen) => {
    void page.route('**/expressions/check', async (route) => {
      if (route.request().postDataJSON()?.expression === '.bridge + @slow') {
        seen();
        await new Promise<void>((release) => (releaseSlow = release));
        await route.continue().catch(() => undefined);
      } else await route.continue();
    });
  });
  await field.fill('.bridge + @slow');
  await slowSeen;
  await field.fill('.bridge + @other');
  const item = page.locator('[data-code="unknown-macro"]');
  await expect(item).toContainText('@other');
  releaseSlow();
  // The older request was aborted: its answer, if any, never replaces the newer one.
  await page.waitForTimeout(500);
  await expect(item).toHaveCount(1);
  await expect(item).toContainText('@other');
});
