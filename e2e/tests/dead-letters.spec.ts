/**
 * A write the server refuses for good (a 4xx other than 401) is set aside, shown in plain words
 * with "try again" and "discard", and does not block other changes (H3 seen from the page).
 */
import {
  addLinkAndSave,
  configMarker,
  createConfig,
  expectNothingPending,
  openApp,
  serverLinks,
} from '../support/app.js';
import { expect, test } from '../support/fixtures.js';

test('a refused write is shown, does not block others, and can be sent again', async ({
  page,
  baseURL,
  request,
}) => {
  const refused = 'dead-refused';
  const other = 'dead-other';
  await openApp(page, baseURL!);
  await page.route(`**/configs/${refused}`, (route) =>
    route.request().method() === 'PUT'
      ? route.fulfill({
          status: 422,
          contentType: 'application/json',
          body: JSON.stringify({ error: 'refused by the test' }),
        })
      : route.continue(),
  );

  await createConfig(page, refused);
  await addLinkAndSave(page, { id: 'r', url: 'https://example.com/r' });
  const letter = page.getByTestId('dead-letters');
  await expect(letter).toContainText(
    `The server refused the change to “${refused}” (error 422), so it stays only in this browser.`,
  );
  await letter.getByText('What the server said').click();
  await expect(letter.getByText(/refused by the test/)).toBeVisible();
  await expect(configMarker(page, refused)).toHaveText('only in this browser');

  // Another config still goes through.
  await createConfig(page, other);
  await addLinkAndSave(page, { id: 'o', url: 'https://example.com/o' });
  await expect
    .poll(() => serverLinks(request, { baseURL: baseURL!, name: other }))
    .toEqual({ o: { url: 'https://example.com/o' } });
  expect(
    await serverLinks(request, { baseURL: baseURL!, name: refused }),
  ).toBeNull();

  // The cause is gone: try again from the status line.
  await page.unroute(`**/configs/${refused}`);
  await page
    .getByRole('button', { name: `Try again to send “${refused}”` })
    .click();
  await expect
    .poll(() => serverLinks(request, { baseURL: baseURL!, name: refused }))
    .toEqual({ r: { url: 'https://example.com/r' } });
  await expect(letter).toBeEmpty();
  await expectNothingPending(page);
  await expect(configMarker(page, refused)).toHaveCount(0);
});

test('a write refused in another tab shows in this one too, without a reload', async ({
  context,
  baseURL,
}) => {
  const name = 'dead-other-tab';
  // Whichever tab delivers the write, the server refuses it.
  await context.route(`**/configs/${name}`, (route) =>
    route.request().method() === 'PUT'
      ? route.fulfill({
          status: 422,
          contentType: 'application/json',
          body: JSON.stringify({ error: 'refused by the test' }),
        })
      : route.continue(),
  );
  const watching = await context.newPage();
  await openApp(watching, baseURL!);
  const writing = await context.newPage();
  await openApp(writing, baseURL!);

  await createConfig(writing, name);
  await addLinkAndSave(writing, { id: 't', url: 'https://example.com/t' });
  const refused = `The server refused the change to “${name}” (error 422), so it stays only in this browser.`;
  for (const page of [writing, watching])
    await expect(page.getByTestId('dead-letters')).toContainText(refused);
  await expect(configMarker(watching, name)).toHaveText('only in this browser');

  // Discarded in one tab: gone from the other as well.
  await writing
    .getByRole('button', { name: `Discard the change to “${name}”` })
    .click();
  for (const page of [writing, watching])
    await expect(page.getByTestId('dead-letters')).toBeEmpty();
});
