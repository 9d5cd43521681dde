/**
 * Conflicts seen from the page (docs/client-stores.md, "Conflicts"): a change saved in this browser
 * while offline meets a newer version another client put on the server, which changed the same field
 * (both added link `shared`, with different URLs). The page lists only that field, beside the version
 * both started from, and the person keeps theirs, takes the server's, or picks per field; nothing is
 * overwritten before that. (Changes to different links merge without a question: `merge.spec.ts`.)
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
const PICKED = { url: MINE.url, label: 'Theirs' };
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
  await addLinkAndSave(page, { id: 'shared', url: MINE.url });
  await expect.poll(() => pendingCount(page)).toBe(1);
  await putOverRest(baseURL, name, {
    allLinks: { first: FIRST, shared: THEIRS },
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
  // Only the one field both changed is asked about; the label only the server added is merged.
  const rows = conflict.getByTestId('conflict-row');
  await expect(rows).toHaveCount(1);
  await expect(rows).toHaveAttribute('data-path', 'allLinks/shared/url');
  await expect(rows).toContainText('link shared · url');
  // Until the person chooses, the server keeps the other version and the page keeps this one.
  expect(await serverLinks(page.request, { baseURL, name })).toEqual({
    first: FIRST,
    shared: THEIRS,
  });
  await expect(linkRow(page, 'shared')).toBeVisible();
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
    .toEqual({ first: FIRST, shared: MINE });
  await expectNothingPending(page);
  await expect(linkRow(page, 'shared')).toContainText(MINE.url);
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
  await expect(linkRow(page, 'shared')).toContainText(THEIRS.url);
  await expect(page.getByTestId('draft-state')).toHaveAttribute(
    'data-dirty',
    'false',
  );
  await expectNothingPending(page);
  expect(await serverLinks(request, { baseURL: baseURL!, name })).toEqual({
    first: FIRST,
    shared: THEIRS,
  });
});

test("a pick per field keeps mine there and the server's other changes, here and on the server", async ({
  page,
  context,
  baseURL,
  request,
}) => {
  const name = 'conflict-pick';
  await makeConflict(page, context, { baseURL: baseURL!, name });

  // No button that drops someone else's change is the default: the one primary button applies the
  // person's own pick per row (each row must be picked first).
  await expect(panel(page).locator('.button.primary')).toHaveCount(1);
  await expect(panel(page).locator('.button.primary')).toHaveAttribute(
    'data-testid',
    'apply-picks',
  );
  await panel(page).getByRole('radio', { name: 'Yours' }).check();
  await panel(page).getByTestId('apply-picks').click();
  await expect(panel(page)).toHaveCount(0);
  await expect
    .poll(() => serverLinks(request, { baseURL: baseURL!, name }))
    .toEqual({ first: FIRST, shared: PICKED });
  await expect(linkRow(page, 'shared')).toContainText('Theirs');
  await expect(linkRow(page, 'shared')).toContainText(MINE.url);
  await expectNothingPending(page);
});

test('the conflict panel at 1280 and 390 px: radios their own size, Before / Yours / Server’s apart, one primary decision button', async ({
  page,
  context,
  baseURL,
}, testInfo) => {
  const name = 'conflict-look';
  await page.setViewportSize({ width: 1280, height: 900 });
  await makeConflict(page, context, { baseURL: baseURL!, name });
  const form = panel(page).getByTestId('conflict-picks');
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
    await form.scrollIntoViewIfNeeded();
    const path = testInfo.outputPath(`conflict-panel-${width}.png`);
    await form.screenshot({ path });
    await testInfo.attach(`conflict-panel-${width}`, {
      path,
      contentType: 'image/png',
    });
    // Each radio button is drawn at its own size, not stretched by the text inputs' rule.
    for (const radio of await form.getByRole('radio').all()) {
      const box = await radio.boundingBox();
      expect(box?.width, `radio width at ${width} px`).toBeLessThanOrEqual(24);
    }
    // The three versions' cells do not run together: their boxes do not overlap, and a ruled edge or
    // a gap stands between them.
    const row = form.getByTestId('conflict-row').first();
    const cells = [
      row.locator('td[data-label="Before"]'),
      row.locator('td[data-label="Yours"]'),
      row.locator('td[data-label="Server’s"]'),
    ];
    const boxes = await Promise.all(cells.map((cell) => cell.boundingBox()));
    for (let i = 1; i < boxes.length; i++) {
      const [a, b] = [boxes[i - 1]!, boxes[i]!];
      const apart = a.x + a.width <= b.x + 0.5 || a.y + a.height <= b.y + 0.5;
      expect(apart, `cells ${i - 1} and ${i} at ${width} px`).toBe(true);
    }
    const edges = await Promise.all(
      cells.map((cell) =>
        cell.evaluate((el) => {
          const style = getComputedStyle(el);
          return (
            parseFloat(style.borderTopWidth) +
            parseFloat(style.borderLeftWidth) +
            parseFloat(style.borderBottomWidth)
          );
        }),
      ),
    );
    expect(
      edges.every((edge) => edge > 0),
      `ruled cells at ${width} px`,
    ).toBe(true);
    // The decision is the one primary button, drawn as one (not as the plain buttons beside it).
    const apply = form.getByTestId('apply-picks');
    await expect(apply).toHaveClass(/\bprimary\b/);
    const [primaryBg, plainBg] = await Promise.all([
      apply.evaluate((el) => getComputedStyle(el).backgroundColor),
      form
        .locator('.button:not(.primary)')
        .first()
        .evaluate((el) => getComputedStyle(el).backgroundColor),
    ]);
    expect(primaryBg).not.toBe(plainBg);
  }
});
