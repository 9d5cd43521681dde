/**
 * H11 (docs/guarantees.md): delivery does not depend on `navigator.onLine`. With the browser "online" but
 * the API unreachable (requests aborted), changes wait; once it is reachable again the queue drains
 * without any `online` event.
 */
import {
  addLinkAndSave,
  CONNECTED,
  createConfig,
  expectNothingPending,
  openApp,
  pendingCount,
  serverLinks,
} from '../support/app.js';
import { expect, test } from '../support/fixtures.js';

test('H11: the queue drains after the server is reachable again, with no online event', async ({
  page,
  baseURL,
  request,
}) => {
  const name = 'h11-unreachable';
  await page.addInitScript(() => {
    const counter = window as unknown as { onlineEvents: number };
    counter.onlineEvents = 0;
    addEventListener('online', () => (counter.onlineEvents += 1));
  });
  await openApp(page, baseURL!);

  const blocked = (url: URL) => url.pathname.startsWith('/configs');
  await page.route(blocked, (route) => route.abort('connectionrefused'));
  await createConfig(page, name);
  await addLinkAndSave(page, { id: 'x', url: 'https://example.com/x' });
  await expect(page.getByTestId('status-server')).toHaveText(
    /server cannot be reached/,
  );
  expect(await page.evaluate(() => navigator.onLine)).toBe(true);
  expect(await pendingCount(page)).toBe(1);

  await page.unroute(blocked);
  await expect
    .poll(() => serverLinks(request, { baseURL: baseURL!, name }), {
      timeout: 30_000,
    })
    .toEqual({ x: { url: 'https://example.com/x' } });
  await expectNothingPending(page);
  await expect(page.getByTestId('status-server')).toHaveText(CONNECTED);
  // The problem is over, so the status no longer mentions it.
  await expect(page.getByTestId('status-problem')).toHaveCount(0);
  expect(
    await page.evaluate(
      () => (window as unknown as { onlineEvents: number }).onlineEvents,
    ),
  ).toBe(0);
});
