/**
 * H1 (docs/guarantees.md): a change saved while the browser is offline survives a reload and reaches the
 * server once the browser is back online; the page then shows nothing pending.
 */
import {
  addLinkAndSave,
  configButton,
  configMarker,
  createConfig,
  expectNothingPending,
  openApp,
  outboxEntries,
  pendingCount,
  screenshot,
  serverLinks,
} from '../support/app.js';
import { expect, test } from '../support/fixtures.js';

test.use({ serviceWorkers: 'allow' });

test('H1: an offline save survives a reload and reaches the server after reconnect', async ({
  page,
  context,
  baseURL,
  request,
}, testInfo) => {
  const name = 'h1-offline';
  const link = { id: 'map', url: 'https://example.com/map', tags: ['trip'] };
  await openApp(page, baseURL!);
  await expect
    .poll(() =>
      page.evaluate(() => navigator.serviceWorker.controller !== null),
    )
    .toBe(true);

  await context.setOffline(true);
  await createConfig(page, name);
  await addLinkAndSave(page, link);
  await expect(page.getByTestId('status-server')).toHaveText(/offline/);
  await expect.poll(() => pendingCount(page)).toBe(1);

  await page.reload();
  await expect(page.locator('body')).toHaveAttribute('data-ready', 'true');
  await expect.poll(() => pendingCount(page)).toBe(1);
  expect(await outboxEntries(page)).toEqual([{ name, op: 'save' }]);
  await expect(configButton(page, name)).toBeVisible();
  await expect(configMarker(page, name)).toHaveText('not yet on the server');
  // The server's names are remembered from the last visit; the page says they cannot open now.
  await expect(configMarker(page, 'demo')).toHaveText('not available offline');
  // The config that was open is open again.
  await expect(page.getByTestId('editor-heading')).toHaveText(name);
  await screenshot(page, testInfo, 'offline-after-reload');
  expect(await serverLinks(request, { baseURL: baseURL!, name })).toBeNull();

  await context.setOffline(false);
  await expect
    .poll(() => serverLinks(request, { baseURL: baseURL!, name }), {
      timeout: 20_000,
    })
    .toEqual({ map: { url: link.url, tags: link.tags } });
  await expectNothingPending(page);
  expect(await outboxEntries(page)).toEqual([]);
  await expect(configMarker(page, name)).toHaveCount(0, { timeout: 20_000 });
  await screenshot(page, testInfo, 'online-delivered');
});
