/**
 * Live updates (docs/web-app.md): the page follows the server's change feed, so a change another client
 * makes to the open config shows without a reload; with unsaved edits to the same field the edits stay
 * and a notice offers the other version (edits elsewhere are merged: `merge.spec.ts`); a deletion is
 * said; another tab's save shows too.
 */
import type { Page } from '@playwright/test';
import {
  addLink,
  editLink,
  addLinkAndSave,
  deleteOverRest,
  expectLive,
  expectNothingPending,
  linkRow,
  openApp,
  openConfig,
  putOverRest,
  saveConfig,
  serverLinks,
} from '../support/app.js';
import { expect, test } from '../support/fixtures.js';

const link = (n: number) => ({
  url: `https://example.com/${n}`,
  label: `Link ${n}`,
});

/** Puts `name` on the server with links `first`, opens it in the page and waits for the feed. */
async function openShared(
  page: Page,
  baseURL: string,
  name: string,
): Promise<void> {
  await putOverRest(baseURL, name, { allLinks: { first: link(1) } });
  await openApp(page, baseURL);
  await openConfig(page, name);
  await expect(linkRow(page, 'first')).toBeVisible();
  // Connected: the page's timer refresh is off, so only the feed can bring the change below.
  await expectLive(page);
  await expect(page.getByTestId('status-live')).toHaveText(
    /Live updates connected/,
  );
}

test('a change made over REST shows in the open config without a reload', async ({
  page,
  baseURL,
}) => {
  const name = 'live-rest';
  await openShared(page, baseURL!, name);

  await putOverRest(baseURL!, name, {
    allLinks: { first: link(1), second: link(2) },
  });
  await expect(linkRow(page, 'second')).toBeVisible();
  await expect(linkRow(page, 'second')).toContainText('Link 2');
  await expect(page.getByTestId('draft-state')).toHaveText(
    'Saved in this browser and on the server.',
  );
  await expect(page.getByTestId('remote-change-notice')).toHaveCount(0);
  await expect(page.getByTestId('announcer')).toHaveText(
    /“live-rest” was updated from the server/,
  );
});

test('with unsaved edits to the same field the edits stay and a notice offers the server version: show theirs', async ({
  page,
  baseURL,
}) => {
  const name = 'live-dirty-theirs';
  await openShared(page, baseURL!, name);
  await addLink(page, { id: 'mine', url: 'https://example.com/mine' });
  await editLink(page, 'first', { label: 'Mine' });

  await putOverRest(baseURL!, name, {
    allLinks: { first: { ...link(1), label: 'Theirs' }, theirs: link(3) },
  });
  const notice = page.getByTestId('remote-change-notice');
  await expect(notice).toBeVisible();
  await expect(notice).toContainText('This config changed on the server');
  // Nothing of the person's work was replaced.
  await expect(linkRow(page, 'mine')).toBeVisible();
  await expect(linkRow(page, 'theirs')).toHaveCount(0);
  await expect(page.getByTestId('draft-state')).toHaveAttribute(
    'data-dirty',
    'true',
  );

  await notice.getByRole('button', { name: 'Show theirs' }).click();
  await expect(linkRow(page, 'theirs')).toBeVisible();
  await expect(linkRow(page, 'mine')).toHaveCount(0);
  await expect(notice).toHaveCount(0);
  await expect(page.getByTestId('editor-heading')).toBeFocused();
  await expect(page.getByTestId('draft-state')).toHaveAttribute(
    'data-dirty',
    'false',
  );
});

test('with unsaved edits, keep mine: mine where both changed, theirs merged in elsewhere, both on the server', async ({
  page,
  baseURL,
  request,
}) => {
  const name = 'live-dirty-mine';
  await openShared(page, baseURL!, name);
  await addLink(page, { id: 'mine', url: 'https://example.com/mine' });
  await editLink(page, 'first', { label: 'Mine' });

  await putOverRest(baseURL!, name, {
    allLinks: { first: { ...link(1), label: 'Theirs' }, theirs: link(3) },
  });
  const notice = page.getByTestId('remote-change-notice');
  await notice.getByRole('button', { name: 'Keep mine' }).click();
  await expect(notice).toHaveCount(0);
  await expect(page.getByTestId('save-config')).toBeFocused();
  await expect(linkRow(page, 'mine')).toBeVisible();

  await saveConfig(page);
  await expectNothingPending(page);
  await expect
    .poll(() => serverLinks(request, { baseURL: baseURL!, name }))
    .toEqual({
      first: { ...link(1), label: 'Mine' },
      mine: { url: 'https://example.com/mine' },
      theirs: link(3),
    });
  // The same version again (the feed's echo, a resync) raises no notice.
  await expect(notice).toHaveCount(0);
  await expect(page.getByTestId('conflicts')).toHaveCount(0);
});

test('a config deleted elsewhere is said so; "Close it" closes it', async ({
  page,
  baseURL,
}) => {
  const name = 'live-deleted';
  await openShared(page, baseURL!, name);

  await deleteOverRest(baseURL!, name);
  const notice = page.getByTestId('remote-change-notice');
  await expect(notice).toContainText('This config was deleted elsewhere');
  await expect(page.getByTestId('draft-state')).toHaveText(/Deleted elsewhere/);
  await notice.getByRole('button', { name: 'Close it' }).click();
  await expect(page.getByTestId('editor-hint')).toHaveText(
    `Config “${name}” was deleted elsewhere.`,
  );
  await expect(
    page.getByTestId('config-list').getByRole('button', { name }),
  ).toHaveCount(0);
});

test("another tab's save shows in this tab without a reload", async ({
  context,
  baseURL,
}) => {
  const name = 'live-two-tabs';
  const first = await context.newPage();
  await openShared(first, baseURL!, name);
  const second = await context.newPage();
  await openApp(second, baseURL!);
  await openConfig(second, name);

  await addLinkAndSave(second, {
    id: 'fromtab',
    url: 'https://example.com/tab',
  });
  await expect(linkRow(first, 'fromtab')).toBeVisible();
  await expect(first.getByTestId('remote-change-notice')).toHaveCount(0);
});
