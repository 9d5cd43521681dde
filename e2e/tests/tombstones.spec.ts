/**
 * H5/H6 (docs/guarantees.md): offline save → delete leaves the name absent everywhere; offline delete →
 * save leaves the saved value, and no DELETE reaches the server after that last PUT.
 */
import type { Page } from '@playwright/test';
import {
  deleteOpenConfig,
  addLinkAndSave,
  createConfig,
  expectNothingPending,
  openApp,
  openConfig,
  outboxEntries,
  serverLinks,
} from '../support/app.js';
import { expect, test } from '../support/fixtures.js';

/** Creates `name` with one link while online and waits until the server has it. */
async function createDelivered(page: Page, name: string): Promise<void> {
  await createConfig(page, name);
  await addLinkAndSave(page, { id: 'first', url: 'https://example.com/1' });
  await expectNothingPending(page);
}

test('H5: save then delete while offline leaves the name absent everywhere', async ({
  page,
  context,
  baseURL,
  request,
}) => {
  const name = 'h5-gone';
  await openApp(page, baseURL!);
  await createDelivered(page, name);
  expect(
    await serverLinks(request, { baseURL: baseURL!, name }),
  ).not.toBeNull();

  await context.setOffline(true);
  await addLinkAndSave(page, { id: 'second', url: 'https://example.com/2' });
  await deleteOpenConfig(page);
  expect(await outboxEntries(page)).toEqual([{ name, op: 'remove' }]);

  await context.setOffline(false);
  await expect
    .poll(() => serverLinks(request, { baseURL: baseURL!, name }), {
      timeout: 20_000,
    })
    .toBeNull();
  await expectNothingPending(page);

  // Absent here too, also after a reload that reads both the browser's copy and the server's list.
  await page.reload();
  await expect(page.locator('body')).toHaveAttribute('data-ready', 'true');
  await expect(
    page.getByTestId('config-list').getByRole('button', { name }),
  ).toHaveCount(0);
  expect(await serverLinks(request, { baseURL: baseURL!, name })).toBeNull();
});

test('H6: delete then save while offline leaves the saved value', async ({
  page,
  context,
  baseURL,
  request,
}) => {
  const name = 'h6-back';
  await openApp(page, baseURL!);
  await createDelivered(page, name);

  await context.setOffline(true);
  await deleteOpenConfig(page);
  await createConfig(page, name);
  await addLinkAndSave(page, { id: 'again', url: 'https://example.com/again' });
  expect(await outboxEntries(page)).toEqual([{ name, op: 'save' }]);

  const sent: string[] = [];
  page.on('request', (req) => {
    if (new URL(req.url()).pathname === `/configs/${name}`)
      sent.push(req.method());
  });
  await context.setOffline(false);
  await expect
    .poll(() => serverLinks(request, { baseURL: baseURL!, name }), {
      timeout: 20_000,
    })
    .toEqual({ again: { url: 'https://example.com/again' } });
  await expectNothingPending(page);
  expect(sent).toContain('PUT');
  expect(sent.slice(sent.lastIndexOf('PUT'))).not.toContain('DELETE');
  expect(sent).not.toContain('DELETE');

  await openConfig(page, name);
  await expect(page.getByTestId('link-row')).toHaveCount(1);
});
