/**
 * Conflicts seen from the page (docs/client-stores.md, "Conflicts"): a change saved in this browser
 * while offline meets a newer version another client put on the server. The page lists the conflict
 * with what differs, and the person keeps theirs, takes the server's, or merges both; nothing is
 * overwritten before that.
 */
import type { BrowserContext, Page } from '@playwright/test';
import {
  addLinkAndSave,
  expectLive,
  expectNothingPending,
  linkRow,
  openApp,
  openConfig,
  pendingCount,
  putOverRest,
  serverLinks,
} from '../support/app.js';
import { expect, test } from '../support/fixtures.js';

const FIRST = { url: 'https://example.com/1', label: 'First' };
const MINE = { url: 'https://example.com/mine' };
const THEIRS = { url: 'https://example.com/theirs', label: 'Theirs' };

/**
 * Opens `name` (on the server with link `first`), saves link `mine` while offline, lets another client
 * put link `theirs` on the server meanwhile, comes back online, and waits for the conflict panel.
 */
async function makeConflict(
  page: Page,
  context: BrowserContext,
  options: { baseURL: string; name: string },
): Promise<void> {
  const { baseURL, name } = options;
  await putOverRest(baseURL, name, { allLinks: { first: FIRST } });
  await openApp(page, baseURL);
  await openConfig(page, name);
  await expectLive(page);

  await context.setOffline(true);
  await expect(page.getByTestId('status-server')).toHaveText(/offline/);
  await addLinkAndSave(page, { id: 'mine', url: MINE.url });
  await expect.poll(() => pendingCount(page)).toBe(1);
  await putOverRest(baseURL, name, {
    allLinks: { first: FIRST, theirs: THEIRS },
  });
  await context.setOffline(false);

  const panel = page.getByRole('region', {
    name: 'Choose which version to keep',
  });
  await expect(panel).toBeVisible();
  await expect(page.getByTestId('status-conflicts')).toHaveText(
    /1 config was changed here and on the server/,
  );
  const conflict = panel.getByTestId('conflict');
  await expect(conflict).toHaveAttribute('data-config-name', name);
  await expect(conflict.getByTestId('only-mine')).toHaveText(/mine/);
  await expect(conflict.getByTestId('only-theirs')).toHaveText(/theirs/);
  // Until the person chooses, the server keeps the other version and the page keeps this one.
  expect(await serverLinks(page.request, { baseURL, name })).toEqual({
    first: FIRST,
    theirs: THEIRS,
  });
  await expect(linkRow(page, 'mine')).toBeVisible();
}

function panel(page: Page) {
  return page.getByTestId('conflicts');
}

test('"Keep mine" ends with the server holding the version saved in this browser', async ({
  page,
  context,
  baseURL,
  request,
}) => {
  const name = 'conflict-keep-mine';
  await makeConflict(page, context, { baseURL: baseURL!, name });

  await panel(page).getByRole('button', { name: 'Keep mine' }).click();
  await expect(panel(page)).toHaveCount(0);
  await expect(page.getByTestId('status-conflicts')).toHaveCount(0);
  await expect(page.getByTestId('editor-heading')).toBeFocused();
  await expect
    .poll(() => serverLinks(request, { baseURL: baseURL!, name }))
    .toEqual({ first: FIRST, mine: MINE });
  await expectNothingPending(page);
  await expect(linkRow(page, 'mine')).toBeVisible();
  await expect(linkRow(page, 'theirs')).toHaveCount(0);
});

test('"Take the server\'s" ends with the page showing the server version', async ({
  page,
  context,
  baseURL,
  request,
}) => {
  const name = 'conflict-take-theirs';
  await makeConflict(page, context, { baseURL: baseURL!, name });

  await panel(page).getByRole('button', { name: 'Take the server’s' }).click();
  await expect(panel(page)).toHaveCount(0);
  await expect(linkRow(page, 'theirs')).toBeVisible();
  await expect(linkRow(page, 'mine')).toHaveCount(0);
  await expect(page.getByTestId('draft-state')).toHaveAttribute(
    'data-dirty',
    'false',
  );
  await expectNothingPending(page);
  expect(await serverLinks(request, { baseURL: baseURL!, name })).toEqual({
    first: FIRST,
    theirs: THEIRS,
  });
});

test('"Merge" keeps the links of both versions, here and on the server', async ({
  page,
  context,
  baseURL,
  request,
}) => {
  const name = 'conflict-merge';
  await makeConflict(page, context, { baseURL: baseURL!, name });

  await panel(page)
    .getByRole('button', { name: /^Merge both versions/ })
    .click();
  await expect(panel(page)).toHaveCount(0);
  await expect(linkRow(page, 'theirs')).toBeVisible();
  await expect(linkRow(page, 'mine')).toBeVisible();
  await expect
    .poll(() => serverLinks(request, { baseURL: baseURL!, name }))
    .toEqual({ first: FIRST, mine: MINE, theirs: THEIRS });
  await expectNothingPending(page);
});
