/**
 * The Content-Security-Policy in a real browser: the web page (`/`) and the API docs (`/docs`, Swagger
 * UI) work under it, with no violation reported, and a violation would be seen by this test.
 */
import type { Page } from '@playwright/test';
import { CONNECTED } from '../support/app.js';
import { expect, test } from '../support/fixtures.js';

interface Violation {
  directive: string;
  blocked: string;
}

/** Records CSP violations (from the page's own event) and console errors, from the first script on. */
async function watch(page: Page) {
  const consoleErrors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') consoleErrors.push(message.text());
  });
  page.on('pageerror', (error) => consoleErrors.push(error.message));
  await page.addInitScript(() => {
    const seen: { directive: string; blocked: string }[] = [];
    (window as unknown as { cspViolations: typeof seen }).cspViolations = seen;
    document.addEventListener('securitypolicyviolation', (event) => {
      seen.push({
        directive: event.effectiveDirective,
        blocked: event.blockedURI,
      });
    });
  });
  return {
    consoleErrors,
    violations: () =>
      page.evaluate(
        () =>
          (window as unknown as { cspViolations: Violation[] }).cspViolations,
      ),
  };
}

// Swagger UI decides some things by host name (its online validator is never used on localhost), so
// the docs are also opened under a made-up name that this file's Chromium resolves to the test server.
// Playwright replaces launch options as a whole, hence the repeated arguments of playwright.config.ts.
test.use({
  launchOptions: {
    executablePath: process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--host-resolver-rules=MAP docs.linkconfig.test 127.0.0.1',
    ],
  },
});

test('the web page runs under the CSP without violations', async ({
  page,
  baseURL,
}) => {
  const watched = await watch(page);
  const response = await page.goto(`${baseURL}/`);
  expect(response?.headers()['content-security-policy']).toContain(
    "script-src 'self'",
  );
  // The page's script ran, talked to the server and rendered the seeded config.
  await expect(page.getByTestId('status-server')).toHaveText(CONNECTED);
  await expect(
    page.getByTestId('config-list').getByRole('button', { name: 'demo' }),
  ).toBeVisible();
  await page
    .getByTestId('config-list')
    .getByRole('button', { name: 'demo' })
    .click();
  await expect(page.getByTestId('link-row').first()).toBeVisible();
  expect(await watched.violations()).toEqual([]);
  expect(watched.consoleErrors).toEqual([]);
});

test('the API docs run under the CSP without violations', async ({
  page,
  baseURL,
}) => {
  const watched = await watch(page);
  const response = await page.goto(`${baseURL}/docs`);
  expect(response?.headers()['content-security-policy']).toContain(
    "style-src 'self'",
  );
  // Swagger UI loaded the document and rendered its operations; open one to render its schemas.
  await expect(page.locator('.swagger-ui .info .title')).toContainText(
    'Link Config Service',
  );
  const operation = page.locator('.opblock-summary').first();
  await expect(operation).toBeVisible();
  await operation.click();
  await expect(page.locator('.opblock-body').first()).toBeVisible();
  expect(await watched.violations()).toEqual([]);
  expect(watched.consoleErrors).toEqual([]);
});

test('the API docs call nothing outside the server', async ({
  page,
  baseURL,
}) => {
  const watched = await watch(page);
  const outside: string[] = [];
  page.on('request', (request) => {
    if (!request.url().startsWith('http://docs.linkconfig.test:'))
      outside.push(request.url());
  });
  const port = new URL(baseURL!).port;
  await page.goto(`http://docs.linkconfig.test:${port}/docs`);
  await expect(page.locator('.swagger-ui .info .title')).toContainText(
    'Link Config Service',
  );
  await expect(page.locator('.opblock-summary').first()).toBeVisible();
  expect(await watched.violations()).toEqual([]);
  expect(watched.consoleErrors).toEqual([]);
  expect(outside).toEqual([]);
});

test('an inline script is blocked and reported, so the checks above can fail', async ({
  page,
  baseURL,
}) => {
  const watched = await watch(page);
  await page.goto(`${baseURL}/docs`);
  await page.evaluate(() => {
    const script = document.createElement('script');
    script.textContent = 'window.inlineRan = true;';
    document.body.append(script);
  });
  await expect
    .poll(() => watched.violations())
    .toEqual([{ directive: 'script-src-elem', blocked: 'inline' }]);
  expect(
    await page.evaluate(
      () => (window as unknown as { inlineRan?: boolean }).inlineRan,
    ),
  ).toBeUndefined();
});
