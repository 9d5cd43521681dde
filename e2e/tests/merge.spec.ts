/**
 * Edits at the grain of a link (issue 20, H21): two people editing different links of one config see
 * no conflict, the page says the other version's changes were merged in, and the server and both pages
 * end with both edits; the same field edited differently is one conflict naming that field, settled
 * per field; a removed link against an edit of it is a conflict of that link; and unsaved edits meeting
 * another save are merged before they are saved.
 */
import type { Browser, BrowserContext, Page } from '@playwright/test';
import {
  editLink,
  expectLive,
  expectNothingPending,
  linkRow,
  openApp,
  openConfig,
  pendingCount,
  putOverRest,
  saveConfig,
  serverLinks,
} from '../support/app.js';
import { expect, test } from '../support/fixtures.js';

const A = { url: 'https://example.com/a', label: 'A' };
const B = { url: 'https://example.com/b', label: 'B' };

/** A person: a browser context of their own, with the shared config open and live. */
interface Person {
  context: BrowserContext;
  page: Page;
}

async function person(
  browser: Browser,
  baseURL: string,
  name: string,
): Promise<Person> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await openApp(page, baseURL);
  await openConfig(page, name);
  await expectLive(page);
  return { context, page };
}

async function goOffline(who: Person): Promise<void> {
  await who.context.setOffline(true);
  await expect(who.page.getByTestId('status-server')).toHaveText(/offline/);
}

/** Both open `name` (links a and b), go offline, and each saves its own edit. */
async function offlineEdits(
  browser: Browser,
  { baseURL, name }: { baseURL: string; name: string },
  edits: {
    one: (page: Page) => Promise<void>;
    two: (page: Page) => Promise<void>;
  },
): Promise<[Person, Person]> {
  await putOverRest(baseURL, name, { allLinks: { a: A, b: B } });
  const one = await person(browser, baseURL, name);
  const two = await person(browser, baseURL, name);
  for (const [who, edit] of [
    [one, edits.one],
    [two, edits.two],
  ] as const) {
    await goOffline(who);
    await edit(who.page);
    await saveConfig(who.page);
    await expect.poll(() => pendingCount(who.page)).toBe(1);
  }
  // The first one delivers; the second then meets its newer version.
  await one.context.setOffline(false);
  await expectNothingPending(one.page);
  await two.context.setOffline(false);
  return [one, two];
}

test('two people edit different links offline: no conflict, both edits on the server and in both pages', async ({
  browser,
  baseURL,
  request,
}) => {
  const name = 'merge-different-links';
  const [one, two] = await offlineEdits(
    browser,
    { baseURL: baseURL!, name },
    {
      one: (page) => editLink(page, 'a', { label: 'A by one' }),
      two: (page) => editLink(page, 'b', { label: 'B by two' }),
    },
  );
  await expectNothingPending(two.page);
  const both = {
    a: { ...A, label: 'A by one' },
    b: { ...B, label: 'B by two' },
  };
  await expect
    .poll(() => serverLinks(request, { baseURL: baseURL!, name }))
    .toEqual(both);
  for (const { page } of [one, two]) {
    await expect(page.getByTestId('conflicts')).toHaveCount(0);
    await expect(linkRow(page, 'a')).toContainText('A by one');
    await expect(linkRow(page, 'b')).toContainText('B by two');
  }
  await expect(two.page.getByTestId('merged-note')).toContainText(
    'those changes were merged with yours',
  );
  await one.context.close();
  await two.context.close();
});

test('the same field edited differently is one conflict naming that field, settled per field', async ({
  browser,
  baseURL,
  request,
}) => {
  const name = 'merge-same-field';
  const [one, two] = await offlineEdits(
    browser,
    { baseURL: baseURL!, name },
    {
      one: (page) => editLink(page, 'a', { url: 'https://example.com/one' }),
      two: async (page) => {
        await editLink(page, 'a', { url: 'https://example.com/two' });
        await editLink(page, 'b', { label: 'B by two' });
      },
    },
  );
  const panel = two.page.getByTestId('conflicts');
  const rows = panel.getByTestId('conflict-row');
  await expect(rows).toHaveCount(1);
  await expect(rows).toHaveAttribute('data-path', 'allLinks/a/url');
  await expect(rows).toContainText('link a · url');
  await expect(rows).toContainText(A.url);
  // The other writer's version stays on the server until the person picks.
  expect(
    (await serverLinks(request, { baseURL: baseURL!, name }))?.['a'],
  ).toEqual({ ...A, url: 'https://example.com/one' });
  await rows.getByRole('radio', { name: 'Server’s' }).check();
  await panel.getByTestId('apply-picks').click();
  await expect(panel).toHaveCount(0);
  await expect
    .poll(() => serverLinks(request, { baseURL: baseURL!, name }))
    .toEqual({
      a: { ...A, url: 'https://example.com/one' },
      b: { ...B, label: 'B by two' },
    });
  await expectNothingPending(two.page);
  await one.context.close();
  await two.context.close();
});

test('a link removed on one side and edited on the other is a conflict of that link', async ({
  browser,
  baseURL,
  request,
}) => {
  const name = 'merge-removal';
  const [one, two] = await offlineEdits(
    browser,
    { baseURL: baseURL!, name },
    {
      one: (page) =>
        linkRow(page, 'a')
          .getByRole('button', { name: 'Delete link a' })
          .click(),
      two: (page) => editLink(page, 'a', { label: 'A kept by two' }),
    },
  );
  const panel = two.page.getByTestId('conflicts');
  const rows = panel.getByTestId('conflict-row');
  await expect(rows).toHaveCount(1);
  await expect(rows).toHaveAttribute('data-path', 'allLinks/a');
  await panel.getByRole('button', { name: 'Yours for the whole link' }).click();
  await panel.getByTestId('apply-picks').click();
  await expect(panel).toHaveCount(0);
  await expect
    .poll(() => serverLinks(request, { baseURL: baseURL!, name }))
    .toEqual({ a: { ...A, label: 'A kept by two' }, b: B });
  await one.context.close();
  await two.context.close();
});

test('unsaved edits in one page, another saves a different link, then the first saves: both edits on the server', async ({
  browser,
  baseURL,
  request,
}) => {
  const name = 'merge-page-flow';
  await putOverRest(baseURL!, name, { allLinks: { a: A, b: B } });
  const one = await person(browser, baseURL!, name);
  const two = await person(browser, baseURL!, name);
  await editLink(one.page, 'a', { label: 'katz' });
  await expect(one.page.getByTestId('draft-state')).toHaveAttribute(
    'data-dirty',
    'true',
  );
  await editLink(two.page, 'b', { label: 'mustang renamed' });
  await saveConfig(two.page);
  await expectNothingPending(two.page);
  // The other save reaches the first page and is merged into its unsaved edits, without a question.
  await expect(one.page.getByTestId('merged-note')).toBeVisible();
  await expect(linkRow(one.page, 'b')).toContainText('mustang renamed');
  await expect(one.page.getByTestId('remote-change-notice')).toHaveCount(0);
  await saveConfig(one.page);
  await expectNothingPending(one.page);
  await expect
    .poll(() => serverLinks(request, { baseURL: baseURL!, name }))
    .toEqual({
      a: { ...A, label: 'katz' },
      b: { ...B, label: 'mustang renamed' },
    });
  await one.context.close();
  await two.context.close();
});
