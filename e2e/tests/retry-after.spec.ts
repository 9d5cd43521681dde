/**
 * H12 (docs/guarantees.md) in a real browser: after a 429 with `Retry-After: 2`, the page's hybrid store
 * sends nothing to the server until the two seconds have passed, however many saves come meanwhile, and
 * then one PUT delivers the latest value. Time is Playwright's clock, moved by the test: nothing here
 * depends on how fast the machine is.
 *
 * The wait after the 429 is `max(jitter, Retry-After)` with a jitter below the first backoff step (1 s),
 * so it is exactly 2 s (web-client/src/backoff.ts); the hold itself ends 2 s after the 429 too
 * (web-client/src/hybrid/sync-queue.ts).
 */
import type { Route } from '@playwright/test';
import {
  addLinkAndSave,
  createConfig,
  expectNothingPending,
  openApp,
  pendingCount,
  serverLinks,
} from '../support/app.js';
import { expect, test } from '../support/fixtures.js';
import {
  RequestLog,
  deliveryIdle,
  localCopy,
} from '../support/store-timing.js';

const link = (id: string) => ({ url: `https://example.com/${id}` });
const FINAL = { one: link('one'), two: link('two'), three: link('three') };

test('H12: after a 429 with Retry-After, nothing is sent until it has passed, then one PUT carries the latest value', async ({
  page,
  baseURL,
  request,
}) => {
  const name = `retry-after-${Date.now().toString(36)}`;
  const path = `/configs/${encodeURIComponent(name)}`;
  const onServer = () => serverLinks(request, { baseURL: baseURL!, name });

  // The clock runs normally while the page loads and the config is created (and delivered).
  await page.clock.install();
  await openApp(page, baseURL!);
  await createConfig(page, name);
  await expect.poll(onServer).toEqual({});
  await expectNothingPending(page);

  // From now on the page's time moves only when the test moves it.
  await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 1000);
  const log = new RequestLog(page, '/configs');
  let refused = false;
  await page.route(
    (url) => url.pathname === path,
    async (route: Route) => {
      if (route.request().method() !== 'PUT' || refused)
        return route.fallback();
      refused = true;
      await route.fulfill({
        status: 429,
        headers: { 'Retry-After': '2' },
        contentType: 'application/json',
        body: JSON.stringify({ error: 'Too many requests: try again later' }),
      });
    },
  );

  // The first save gets the 429.
  log.phase = 'first';
  const tooMany = page.waitForResponse(
    (response) =>
      response.request().method() === 'PUT' &&
      new URL(response.url()).pathname === path,
  );
  await addLinkAndSave(page, { id: 'one', ...link('one') });
  expect((await tooMany).status()).toBe(429);
  await deliveryIdle(page);
  expect(log.in('first', 'PUT')).toHaveLength(1);

  // Two more saves right away: they only queue (one outbox entry holds the latest value).
  log.phase = 'held';
  await addLinkAndSave(page, { id: 'two', ...link('two') });
  await addLinkAndSave(page, { id: 'three', ...link('three') });
  expect(await localCopy(page, name)).toEqual({ links: FINAL, outbox: [name] });
  await expect.poll(() => pendingCount(page)).toBe(1);

  // 1.5 s later: still nothing sent, neither the writes nor any read (the saves also list the configs).
  await page.clock.runFor(1500);
  await deliveryIdle(page);
  expect(log.in('held')).toEqual([]);
  expect(await pendingCount(page)).toBe(1);
  expect(await onServer()).toEqual({});

  // Past 2 s: one PUT with the latest value, and the server has it.
  log.phase = 'after';
  await page.clock.runFor(600);
  await expect.poll(onServer).toEqual(FINAL);
  await expectNothingPending(page);
  await deliveryIdle(page);
  expect(log.in('after', 'PUT')).toEqual([
    { method: 'PUT', path, body: { allLinks: FINAL }, phase: 'after' },
  ]);
  expect(await localCopy(page, name)).toEqual({ links: FINAL, outbox: [] });
});
