/**
 * H15 (docs/guarantees.md) in a real browser: a background refresh whose answer arrives late never
 * replaces a newer local version. The page caches v1, is reloaded (opening the remembered config starts
 * a background refresh), and that refresh's GET is held while the person saves v4 and the store delivers
 * it. Then the old v1 answer is let through: the page, its IndexedDB and the server keep v4.
 */
import type { APIResponse, Route } from '@playwright/test';
import {
  addLinkAndSave,
  createConfig,
  expectNothingPending,
  linkRow,
  openApp,
  serverLinks,
} from '../support/app.js';
import { expect, test } from '../support/fixtures.js';
import { localCopy } from '../support/store-timing.js';

const V1 = { first: { url: 'https://example.com/v1' } };
const V4 = { ...V1, fourth: { url: 'https://example.com/v4' } };

test('H15: a slow background refresh never replaces a newer local version', async ({
  page,
  baseURL,
  request,
}) => {
  const name = `slow-refresh-${Date.now().toString(36)}`;
  const onServer = () => serverLinks(request, { baseURL: baseURL!, name });

  // v1, saved through the page: cached in IndexedDB and delivered to the server.
  await openApp(page, baseURL!);
  await createConfig(page, name);
  await addLinkAndSave(page, { id: 'first', url: V1.first.url });
  await expect.poll(onServer).toEqual(V1);
  await expectNothingPending(page);

  // GETs of this config: passed on, except the first one of the reloaded page (the background refresh
  // of opening it), which is held; at the end, all of them are held (see below).
  let mode: 'pass' | 'hold-next' | 'hold-all' = 'pass';
  const slow: { route: Route; answer: APIResponse }[] = [];
  const heldLater: Route[] = [];
  await page.route(
    (url) => url.pathname === `/configs/${encodeURIComponent(name)}`,
    async (route) => {
      if (route.request().method() !== 'GET' || mode === 'pass')
        return route.fallback();
      if (mode === 'hold-all') {
        heldLater.push(route);
        return;
      }
      mode = 'pass';
      // The server's answer now (it holds v1); the page gets it only later. Asked without
      // If-None-Match, so that it carries v1 even from a store that sends conditional reads.
      const { 'if-none-match': _etag, ...headers } = route.request().headers();
      slow.push({ route, answer: await route.fetch({ headers }) });
    },
  );
  // Armed when the new document commits: the old one can send nothing more by then.
  page.once('framenavigated', () => (mode = 'hold-next'));
  await page.reload();
  await expect(page.locator('body')).toHaveAttribute('data-ready', 'true');
  await expect(page.getByTestId('editor-heading')).toHaveText(name);
  await expect(linkRow(page, 'first')).toBeVisible();
  await expect.poll(() => slow.length).toBe(1);
  const held = slow[0]!;
  expect(held.answer.status()).toBe(200);
  expect(
    ((await held.answer.json()) as { config: { allLinks: unknown } }).config
      .allLinks,
  ).toEqual(V1);

  // The page gives up on a request after 10 s: if it gave up on the held one, the late answer never
  // reached the store, and the test says so instead of passing.
  const slowOutcome: string[] = [];
  page.on('requestfinished', (req) => {
    if (req === held.route.request()) slowOutcome.push('finished');
  });
  page.on('requestfailed', (req) => {
    if (req === held.route.request())
      slowOutcome.push(`failed: ${req.failure()?.errorText}`);
  });

  // Meanwhile the person saves v4, and the store delivers it.
  await addLinkAndSave(page, { id: 'fourth', url: V4.fourth.url });
  await expect.poll(onServer).toEqual(V4);
  await expectNothingPending(page);
  expect(await localCopy(page, name)).toEqual({ links: V4, outbox: [] });

  // From now on no fresh answer may reach the page: had the stale one been taken, nothing would repair
  // it before the checks below.
  mode = 'hold-all';
  await held.route.fulfill({ response: held.answer });
  await expect.poll(() => slowOutcome).toEqual(['finished']);

  // The local copy: read after any write that caching the late answer started.
  expect(await localCopy(page, name)).toEqual({ links: V4, outbox: [] });
  // The page: still v4, and it never announced an update from the server.
  await expect(linkRow(page, 'fourth')).toBeVisible();
  await expect(linkRow(page, 'first')).toBeVisible();
  await expect(page.getByTestId('announcer')).not.toContainText(
    'was updated from the server',
  );
  await expectNothingPending(page);
  // The server: still v4.
  expect(await onServer()).toEqual(V4);

  // Let the held later refreshes through (they bring v4) before the page closes.
  await page.unrouteAll({ behavior: 'ignoreErrors' });
  for (const route of heldLater) await route.continue().catch(() => undefined);
});
