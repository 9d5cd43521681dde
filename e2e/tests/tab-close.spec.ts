/**
 * H2 (docs/guarantees.md): an outbox entry is removed only after a 2xx. When the PUT hangs and the tab is
 * closed, the write stays queued and a new tab delivers it (after a choice, when the hung PUT of an
 * earlier version reached the server as the tab closed).
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
  // Closing the tab may let the hung PUT (the config as first created, without links) go on to the
  // server. The write still queued was based on no server version, so the store then meets that one as
  // a conflict (docs/client-stores.md, "Conflicts") instead of overwriting it: nothing is lost, and
  // "Keep mine" sends the queued write.
  const keepMine = second
    .getByTestId('conflicts')
    .getByRole('button', { name: 'Keep mine' });
  await expect(async () => {
    if (await keepMine.isVisible()) await keepMine.click();
    expect(await serverLinks(request, { baseURL: baseURL!, name })).toEqual({
      a: { url: 'https://example.com/a' },
    });
  }).toPass({ timeout: 20_000 });
  expect(puts.length).toBeGreaterThanOrEqual(1);
  await expectNothingPending(second);
  expect(await outboxEntries(second)).toEqual([]);
});
