/**
 * The History panel (issue 18): after two saves the open config lists its revisions with who, when and
 * what changed; one revision is shown read-only with its diff to the current version (links added and
 * changed, field by field); one link and then the whole version are restored, each as a new revision
 * the server keeps; a deleted config is brought back from "Recently deleted". Keyboard focus moves to
 * what appeared, the restores are announced, and axe finds nothing at 1280 and 390 px.
 */
import type { Page, TestInfo } from '@playwright/test';
import {
  addLinkAndSave,
  createConfig,
  deleteOpenConfig,
  editLink,
  expectAccessible,
  expectNoHorizontalOverflow,
  expectNothingPending,
  linkRow,
  openApp,
  saveConfig,
  screenshot,
  serverLinks,
  tabTo,
} from '../support/app.js';
import { addLink } from '../support/app.js';
import { expect, test } from '../support/fixtures.js';

/** Checks the page with axe and keeps a screenshot, at a desktop and a phone width. */
async function checkBothWidths(
  page: Page,
  testInfo: TestInfo,
  name: string,
): Promise<void> {
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
    await expectAccessible(page, testInfo, `${name}-${width}`);
    await expectNoHorizontalOverflow(page);
    await screenshot(page, testInfo, `${name}-${width}`);
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

test('history: revisions after two saves, one shown with its diff, restore a link, restore a version', async ({
  page,
  baseURL,
  request,
}, testInfo) => {
  const name = `history-e2e-${testInfo.retry}-${Date.now().toString(36)}`;
  await page.setViewportSize({ width: 1280, height: 900 });
  // The page compares revisions itself: it never asks the server for a diff.
  const diffRequests: string[] = [];
  page.on('request', (sent) => {
    if (new URL(sent.url()).pathname.endsWith('/diff'))
      diffRequests.push(sent.url());
  });
  await openApp(page, baseURL!);
  await createConfig(page, name);
  await expectNothingPending(page);
  // Two saves: the first adds "alpha", the second renames it and adds "beta".
  await addLinkAndSave(page, {
    id: 'alpha',
    label: 'Alpha',
    url: 'https://example.com/alpha',
    tags: ['one'],
  });
  await expectNothingPending(page);
  await editLink(page, 'alpha', { label: 'Alpha renamed' });
  await addLink(page, {
    id: 'beta',
    label: 'Beta',
    url: 'https://example.com/beta',
  });
  await saveConfig(page);
  await expectNothingPending(page);

  // From the keyboard, the panel opens with the focus on its heading; the newest revision first.
  await page.getByTestId('save-config').focus();
  await tabTo(page, page.getByTestId('open-history'));
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('open-history')).toHaveAttribute(
    'aria-expanded',
    'true',
  );
  const panel = page.getByTestId('history-panel');
  await expect(panel.getByRole('heading', { level: 3 })).toBeFocused();
  const revisions = panel.getByTestId('revision');
  await expect(revisions).toHaveCount(3);
  await expect(revisions.nth(0)).toHaveAttribute('data-rev', '3');
  await expect(revisions.nth(0)).toContainText('by an unknown author,');
  await expect(revisions.nth(0).getByTestId('revision-summary')).toHaveText(
    'Links: 1 added, 0 removed, 1 changed',
  );
  await expect(revisions.nth(1).getByTestId('revision-summary')).toHaveText(
    'Links: 1 added, 0 removed, 0 changed',
  );
  await expect(revisions.nth(0).locator('time')).toHaveAttribute(
    'datetime',
    /^\d{4}-\d\d-\d\dT/,
  );

  // Revision 2, read-only, against the current version.
  await revisions
    .nth(1)
    .getByRole('button', { name: 'View revision 2' })
    .press('Enter');
  const view = panel.getByTestId('revision-view');
  await expect(
    view.getByRole('heading', { name: 'Revision 2 (read-only)' }),
  ).toBeFocused();
  await expect(view.getByTestId('revision-link')).toHaveCount(1);
  await expect(view.getByTestId('revision-link')).toContainText('Alpha');
  // First what revision 2 itself changed, against the one before it, and the view says so.
  const changes = view.getByTestId('revision-changes');
  await expect(changes.getByRole('heading')).toHaveText(
    'Compared with revision 1 (the one before)',
  );
  await expect(changes.getByTestId('changes-added')).toHaveText(
    'Links added: alpha.',
  );
  await expect(changes.getByTestId('changes-changed')).toHaveCount(0);
  await expect(view.getByTestId('diff-added')).toContainText('beta');
  const changed = view.getByTestId('diff-changed').locator('li');
  await expect(changed).toHaveCount(1);
  await expect(changed.locator('[data-field="label"]')).toContainText(
    /Alpha\s*→\s*now:\s*Alpha renamed|Alpha.*Alpha renamed/,
  );
  await expect(changed.locator('del')).toHaveText('Alpha');
  await expect(changed.locator('ins')).toHaveText('Alpha renamed');
  await checkBothWidths(page, testInfo, 'history-diff');

  // Restore one link: "alpha" as in revision 2; "beta" stays.
  await view
    .getByTestId('diff-changed')
    .getByRole('button', { name: 'Restore this link “alpha”' })
    .click();
  await expect(page.getByTestId('announcer')).toHaveText(
    /Restored the link “alpha” as in revision 2: it is now revision 4\./,
  );
  await expect(panel.getByRole('heading', { level: 3 })).toBeFocused();
  await expect(revisions).toHaveCount(4);
  await expect(revisions.nth(0)).toHaveAttribute('data-op', 'restore');
  await expect(linkRow(page, 'alpha')).toContainText('Alpha');
  await expect(linkRow(page, 'alpha')).not.toContainText('renamed');
  await expect(linkRow(page, 'beta')).toBeVisible();
  let links = await serverLinks(request, { baseURL: baseURL!, name });
  expect(links?.['alpha']?.label).toBe('Alpha');
  expect(Object.keys(links ?? {})).toEqual(['alpha', 'beta']);

  // Restore the whole version 2: "beta" goes.
  await revisions
    .nth(2)
    .getByRole('button', { name: 'View revision 2' })
    .click();
  await expect(view.getByTestId('diff-added')).toContainText('beta');
  await view.getByRole('button', { name: 'Restore this version' }).click();
  await expect(page.getByTestId('announcer')).toHaveText(
    /Restored revision 2 of “.+”: it is now revision 5\./,
  );
  await expect(revisions).toHaveCount(5);
  await expect(linkRow(page, 'beta')).toHaveCount(0);
  await expect(page.getByTestId('draft-state')).toHaveAttribute(
    'data-dirty',
    'false',
  );
  links = await serverLinks(request, { baseURL: baseURL!, name });
  expect(Object.keys(links ?? {})).toEqual(['alpha']);
  expect(diffRequests).toEqual([]);

  // Closing returns the focus to the History button.
  await panel.getByRole('button', { name: 'Close history' }).click();
  await expect(panel).toHaveCount(0);
  await expect(page.getByTestId('open-history')).toBeFocused();
});

test('a deleted config comes back from "Recently deleted"', async ({
  page,
  baseURL,
  request,
}, testInfo) => {
  const name = `deleted-e2e-${testInfo.retry}-${Date.now().toString(36)}`;
  await page.setViewportSize({ width: 1280, height: 900 });
  await openApp(page, baseURL!);
  await createConfig(page, name);
  await addLinkAndSave(page, {
    id: 'keep_me',
    label: 'Keep me',
    url: 'https://example.com/keep',
  });
  await expectNothingPending(page);
  await deleteOpenConfig(page);
  await expectNothingPending(page);
  expect(await serverLinks(request, { baseURL: baseURL!, name })).toBeNull();

  const section = page.getByTestId('recently-deleted');
  await section.getByRole('button', { name: 'Show recently deleted' }).click();
  const item = section.locator(
    `[data-testid="deleted-item"][data-config-name="${name}"]`,
  );
  await expect(item).toBeVisible();
  await checkBothWidths(page, testInfo, 'recently-deleted');

  await item.getByRole('button', { name: `Undelete “${name}”` }).click();
  await expect(page.getByTestId('editor-heading')).toHaveText(name);
  await expect(page.getByTestId('editor-heading')).toBeFocused();
  await expect(page.getByTestId('announcer')).toHaveText(
    new RegExp(`Undeleted “${name}”\\.`),
  );
  await expect(linkRow(page, 'keep_me')).toBeVisible();
  await expect(item).toHaveCount(0);
  const links = await serverLinks(request, { baseURL: baseURL!, name });
  expect(Object.keys(links ?? {})).toEqual(['keep_me']);
});

test('offline, the History panel and "Recently deleted" say that history needs the server', async ({
  page,
  context,
  baseURL,
}, testInfo) => {
  const name = `offline-history-${testInfo.retry}-${Date.now().toString(36)}`;
  await openApp(page, baseURL!);
  await createConfig(page, name);
  await expectNothingPending(page);
  await context.setOffline(true);
  try {
    await page.getByTestId('open-history').click();
    const panel = page.getByTestId('history-panel');
    await expect(panel.getByRole('heading', { level: 3 })).toBeFocused();
    await expect(panel.getByTestId('history-problem')).toHaveText(
      /History is kept on the server, which cannot be reached now\./,
    );
    await expect(panel.getByTestId('revision')).toHaveCount(0);
    await page
      .getByTestId('recently-deleted')
      .getByRole('button', { name: 'Show recently deleted' })
      .click();
    await expect(page.getByTestId('deleted-problem')).toHaveText(
      /History is kept on the server/,
    );
    await expectAccessible(page, testInfo, 'history-offline');
  } finally {
    await context.setOffline(false);
  }
  // Back online (after a reload: the page's own reconnection can take long on a loaded machine), the
  // panel lists the revision.
  await openApp(page, baseURL!);
  await expect(page.getByTestId('editor-heading')).toHaveText(name);
  await page.getByTestId('open-history').click();
  await expect(page.getByTestId('revision')).toHaveCount(1);
  await expect(page.getByTestId('history-problem')).toHaveCount(0);
});
