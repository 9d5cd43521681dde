/**
 * H2 (docs/guarantees.md): an outbox entry is removed only after a 2xx. When the PUT hangs and the tab is
 * closed, the write stays queued and a new tab delivers it.
 */
import type { Route } from '@playwright/test';
import {
  addLinkAndSave,
  createConfig,
  expectNothingPending,
  openApp,
  outboxEntries,
  serverLinks,
} from '../support/app.js';
import { expect, test } from '../support/fixtures.js';

test('H2: a PUT that hangs when the tab closes is finished by the next tab', async ({
  context,
  baseURL,
  request,
}) => {
  const name = 'h2-hang';
  const first = await context.newPage();
  const held: Route[] = [];
  await first.route(`**/configs/${name}`, async (route) => {
    if (route.request().method() === 'PUT') held.push(route);
    else await route.continue();
  });
  await openApp(first, baseURL!);
  await createConfig(first, name);
  await addLinkAndSave(first, { id: 'a', url: 'https://example.com/a' });
  await expect.poll(() => held.length).toBeGreaterThan(0);
  expect(await outboxEntries(first)).toEqual([{ name, op: 'save' }]);
  expect(await serverLinks(request, { baseURL: baseURL!, name })).toBeNull();
  await first.close();

  const second = await context.newPage();
  const puts: string[] = [];
  second.on('request', (req) => {
    if (req.method() === 'PUT' && req.url().endsWith(`/configs/${name}`))
      puts.push(req.url());
  });
  await openApp(second, baseURL!);
  await expect
    .poll(() => serverLinks(request, { baseURL: baseURL!, name }))
    .toEqual({ a: { url: 'https://example.com/a' } });
  expect(puts.length).toBeGreaterThanOrEqual(1);
  await expectNothingPending(second);
  expect(await outboxEntries(second)).toEqual([]);
});
