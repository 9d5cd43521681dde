/**
 * Rules 1 and 2 of the hybrid store (docs/client-stores.md, "Offline, with the hybrid store") seen from the page: a config loaded once is
 * cached and still shown with the server stopped (changes made meanwhile are delivered when it
 * returns); a change another client makes on the server shows up without a reload.
 */
import {
  addLinkAndSave,
  CONNECTED,
  expectNothingPending,
  linkRow,
  openApp,
  openConfig,
  pendingCount,
  screenshot,
  serverLinks,
} from '../support/app.js';
import type { Page } from '@playwright/test';
import { expect, test } from '../support/fixtures.js';

/** The ids of the links the editor shows, in order. */
const linkIds = (page: Page) =>
  page
    .getByTestId('link-row')
    .evaluateAll((rows) => rows.map((row) => row.getAttribute('data-link-id')));

test.describe("with the page's service worker", () => {
  test.use({ serviceWorkers: 'allow' });

  test('rule 1: a config loaded once is served from the browser with the server stopped', async ({
    page,
    ownServer,
    request,
  }, testInfo) => {
    const baseURL = ownServer.baseURL;
    await openApp(page, baseURL);
    // First load: fetched from the server (and cached in the browser).
    const fetched = page.waitForRequest(
      (req) =>
        req.method() === 'GET' && req.url() === `${baseURL}/configs/demo`,
    );
    await openConfig(page, 'demo');
    await fetched;
    const ids = await linkIds(page);
    expect(ids.length).toBeGreaterThan(0);
    // The service worker keeps the page itself, so it opens with the server gone.
    await expect
      .poll(() =>
        page.evaluate(() => navigator.serviceWorker.controller !== null),
      )
      .toBe(true);

    await ownServer.stop();
    await page.reload();
    await expect(page.locator('body')).toHaveAttribute('data-ready', 'true');
    await openConfig(page, 'demo');
    expect(await linkIds(page)).toEqual(ids);
    await expect(page.getByTestId('status-server')).toHaveText(
      /server cannot be reached/,
    );

    // Keep working: a change waits for the server…
    await addLinkAndSave(page, {
      id: 'whiledown',
      url: 'https://example.com/down',
    });
    await expect.poll(() => pendingCount(page)).toBe(1);
    await screenshot(page, testInfo, 'server-stopped');

    // …and goes out when the server is back.
    await ownServer.start();
    await expect
      .poll(
        async () =>
          (await serverLinks(request, { baseURL, name: 'demo' }))?.[
            'whiledown'
          ],
        { timeout: 30_000 },
      )
      .toEqual({ url: 'https://example.com/down' });
    await expectNothingPending(page);
    await expect(page.getByTestId('status-server')).toHaveText(CONNECTED);
  });
});

test('rule 2: a change made on the server by another client shows up after the background refresh', async ({
  page,
  baseURL,
  request,
}) => {
  const name = 'rule2-shared';
  const put = (links: Record<string, { url: string; label: string }>) =>
    request.put(`${baseURL}/configs/${name}`, { data: { allLinks: links } });
  expect(
    (
      await put({ old: { url: 'https://example.com/old', label: 'Old' } })
    ).status(),
  ).toBe(204);

  await openApp(page, baseURL!);
  await openConfig(page, name);
  await expect(linkRow(page, 'old')).toContainText('Old');

  expect(
    (
      await put({ fresh: { url: 'https://example.com/new', label: 'Fresh' } })
    ).status(),
  ).toBe(204);
  // No click, no reload: the change feed (or, while it is not connected, the timer refresh) brings it.
  await expect(linkRow(page, 'fresh')).toContainText('Fresh', {
    timeout: 20_000,
  });
  await expect(linkRow(page, 'old')).toHaveCount(0);
  await expectNothingPending(page);
});
