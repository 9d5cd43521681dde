/**
 * Two editors at once (issue 28, point 3): two browser contexts have one config open and live. A
 * change one of them saves reaches the other's unsaved draft through the shared three-way merge: what
 * merges cleanly is merged and said so, naming the link and field; where both changed the same thing,
 * the conflict rows show the other side and Save waits until each is settled; a config deleted by one
 * while the other edits it is not brought back by a save nobody decided.
 */
import type { Browser, BrowserContext, Page } from '@playwright/test';
import {
  deleteOpenConfig,
  editLink,
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

const A = { url: 'https://example.com/a', label: 'A' };
const B = { url: 'https://example.com/b', label: 'B' };

interface Editor {
  context: BrowserContext;
  page: Page;
}

async function editor(
  browser: Browser,
  baseURL: string,
  name: string,
): Promise<Editor> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await openApp(page, baseURL);
  await openConfig(page, name);
  await expectLive(page);
  return { context, page };
}

/** Puts `name` (links a and b) on the server and opens it in two browser contexts. */
async function twoEditors(
  browser: Browser,
  baseURL: string,
  name: string,
): Promise<[Editor, Editor]> {
  await putOverRest(baseURL, name, { allLinks: { a: A, b: B } });
  return [
    await editor(browser, baseURL, name),
    await editor(browser, baseURL, name),
  ];
}

test("a colleague's new label for the link I am editing: Save waits, their label is shown, my pick is saved", async ({
  browser,
  baseURL,
  request,
}) => {
  const name = 'two-editors-label';
  const [one, two] = await twoEditors(browser, baseURL!, name);
  await editLink(two.page, 'a', { label: 'Label by two' });
  await editLink(one.page, 'a', { label: 'Label by one' });
  await saveConfig(one.page);
  await expectNothingPending(one.page);

  const notice = two.page.getByTestId('remote-change-notice');
  const rows = notice.getByTestId('conflict-row');
  await expect(rows).toHaveCount(1);
  await expect(rows).toHaveAttribute('data-path', 'allLinks/a/label');
  await expect(rows).toContainText('Label by one');
  await expect(rows).toContainText('Label by two');
  // Nothing is saved over the colleague's label until the person chose.
  await expect(two.page.getByTestId('save-config')).toBeDisabled();
  await expect(two.page.getByTestId('merged-note')).toHaveCount(0);
  expect(
    (await serverLinks(request, { baseURL: baseURL!, name }))?.['a'],
  ).toEqual({ ...A, label: 'Label by one' });

  await rows.getByRole('radio', { name: 'Yours' }).check();
  await notice.getByTestId('apply-picks').click();
  await expect(notice).toHaveCount(0);
  await expect(two.page.getByTestId('save-config')).toBeEnabled();
  await saveConfig(two.page);
  await expectNothingPending(two.page);
  await expect
    .poll(() => serverLinks(request, { baseURL: baseURL!, name }))
    .toEqual({ a: { ...A, label: 'Label by two' }, b: B });
  // The first editor sees the decision too.
  await expect(linkRow(one.page, 'a')).toContainText('Label by two');
  await one.context.close();
  await two.context.close();
});

test('a link my colleague deleted while I edit it: a conflict of that link, settled before Save', async ({
  browser,
  baseURL,
  request,
}) => {
  const name = 'two-editors-removed-link';
  const [one, two] = await twoEditors(browser, baseURL!, name);
  await editLink(two.page, 'a', { label: 'Kept by two' });
  await editLink(two.page, 'b', { label: 'B by two' });
  await linkRow(one.page, 'a')
    .getByRole('button', { name: 'Delete link a' })
    .click();
  await saveConfig(one.page);
  await expectNothingPending(one.page);

  const notice = two.page.getByTestId('remote-change-notice');
  const rows = notice.getByTestId('conflict-row');
  await expect(rows).toHaveCount(1);
  await expect(rows).toHaveAttribute('data-path', 'allLinks/a');
  await expect(two.page.getByTestId('save-config')).toBeDisabled();
  await notice
    .getByRole('button', { name: 'Server’s for the whole link' })
    .click();
  await notice.getByTestId('apply-picks').click();
  await expect(linkRow(two.page, 'a')).toHaveCount(0);
  await saveConfig(two.page);
  await expectNothingPending(two.page);
  await expect
    .poll(() => serverLinks(request, { baseURL: baseURL!, name }))
    .toEqual({ b: { ...B, label: 'B by two' } });
  await one.context.close();
  await two.context.close();
});

test('a config my colleague deleted while I edit it: Save waits until I choose to create it again', async ({
  browser,
  baseURL,
  request,
}) => {
  const name = 'two-editors-removed-config';
  const [one, two] = await twoEditors(browser, baseURL!, name);
  await editLink(two.page, 'a', { label: 'Kept by two' });
  await deleteOpenConfig(one.page);
  await expectNothingPending(one.page);

  const notice = two.page.getByTestId('remote-change-notice');
  await expect(notice).toHaveAttribute('data-remote', 'removed');
  await expect(two.page.getByTestId('save-config')).toBeDisabled();
  expect(await serverLinks(request, { baseURL: baseURL!, name })).toBeNull();
  await notice.getByRole('button', { name: 'Keep mine' }).click();
  await saveConfig(two.page);
  await expectNothingPending(two.page);
  await expect
    .poll(() => serverLinks(request, { baseURL: baseURL!, name }))
    .toEqual({ a: { ...A, label: 'Kept by two' }, b: B });
  await one.context.close();
  await two.context.close();
});

test('a colleague changed another link: merged into my draft, and the note names the link and field', async ({
  browser,
  baseURL,
  request,
}) => {
  const name = 'two-editors-clean';
  const [one, two] = await twoEditors(browser, baseURL!, name);
  await editLink(two.page, 'a', { label: 'A by two' });
  await editLink(one.page, 'b', { url: 'https://example.com/b-by-one' });
  await saveConfig(one.page);
  await expectNothingPending(one.page);

  const note = two.page.getByTestId('merged-note');
  await expect(note).toContainText('link b (url)');
  await expect(linkRow(two.page, 'b')).toContainText('b-by-one');
  await expect(two.page.getByTestId('remote-change-notice')).toHaveCount(0);
  await saveConfig(two.page);
  await expectNothingPending(two.page);
  // The note was about the draft; once saved, it is gone.
  await expect(note).toHaveCount(0);
  await expect
    .poll(() => serverLinks(request, { baseURL: baseURL!, name }))
    .toEqual({
      a: { ...A, label: 'A by two' },
      b: { ...B, url: 'https://example.com/b-by-one' },
    });
  await one.context.close();
  await two.context.close();
});
