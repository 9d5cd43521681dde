/**
 * What one save costs (issue 28, point 3): saving one edited link reads the whole outbox at most once
 * and makes at most one request to the server beyond the write itself. Counted, not timed: full reads
 * of the outbox store are counted by wrapping IndexedDB's `getAll` in the page, requests by
 * Playwright's request events (the change feed's stream, which stays open, is left out).
 */
import {
  editLink,
  expectLive,
  expectNothingPending,
  openApp,
  openConfig,
  putOverRest,
  saveConfig,
} from '../support/app.js';
import { expect, test } from '../support/fixtures.js';

test('one save of one link: at most one outbox read and one server round trip beyond the write', async ({
  page,
  baseURL,
}) => {
  const name = 'save-cost';
  await putOverRest(baseURL!, name, {
    allLinks: {
      a: { url: 'https://example.com/a', label: 'A' },
      b: { url: 'https://example.com/b', label: 'B' },
    },
  });
  await page.addInitScript(() => {
    const counts = { outboxReads: 0 };
    (globalThis as unknown as { __counts: typeof counts }).__counts = counts;
    const getAll = IDBObjectStore.prototype.getAll;
    IDBObjectStore.prototype.getAll = function (
      this: IDBObjectStore,
      ...args: Parameters<IDBObjectStore['getAll']>
    ) {
      if (this.name === 'outbox') counts.outboxReads += 1;
      return getAll.apply(this, args);
    };
  });
  const requests: string[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.origin !== new URL(baseURL!).origin) return;
    if (url.pathname === '/events') return;
    if (!/^\/(configs|trpc|expressions|access|search)/.test(url.pathname))
      return;
    requests.push(`${request.method()} ${decodeURIComponent(url.pathname)}`);
  });
  await openApp(page, baseURL!);
  await openConfig(page, name);
  await expectLive(page);
  await expectNothingPending(page);
  await editLink(page, 'a', { label: 'A edited' });
  // Everything start-up and opening did has settled: count from here.
  await page.waitForTimeout(1_000);
  requests.length = 0;
  await page.evaluate(() => {
    (
      globalThis as unknown as { __counts: { outboxReads: number } }
    ).__counts.outboxReads = 0;
  });

  await saveConfig(page);
  await expectNothingPending(page);
  // Let any follow-up (a scheduled list, a refresh) happen before counting.
  await page.waitForTimeout(1_500);

  const outboxReads = await page.evaluate(
    () =>
      (globalThis as unknown as { __counts: { outboxReads: number } }).__counts
        .outboxReads,
  );
  const writes = requests.filter((r) => /^(PUT|PATCH) \/configs\//.test(r));
  const others = requests.filter((r) => !writes.includes(r));
  expect(writes, requests.join('\n')).toHaveLength(1);
  expect(others.length, requests.join('\n')).toBeLessThanOrEqual(1);
  expect(outboxReads, 'full reads of the outbox').toBeLessThanOrEqual(1);
});
