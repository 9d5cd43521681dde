/**
 * Bulk edits, the dense table and the keyboard of the links list (issue 32): 120 filtered links tagged
 * in one revision and Undo in one more; 10 links (a shift-click range) moved to another config, one
 * revision in each, and Undo; the table at 1280 px sorted by a column (the stored order untouched) and
 * a cell edited in place; a keyboard-only run; axe clean and screenshots at 1280 and 390 px. The
 * main-thread time of a bulk action over 500 selected links is measured with the Performance API and
 * reported (console and annotation), never asserted.
 */
import type { APIRequestContext, Page, TestInfo } from '@playwright/test';
import type { Link, LinkConfig } from '@linkconfig/shared';
import {
  expectAccessible,
  expectNothingPending,
  linkRow,
  openApp,
  openConfig,
  putOverRest,
  screenshot,
  serverLinks,
  tabTo,
} from '../support/app.js';
import { expect, test } from '../support/fixtures.js';

/** `count` links: every fifth "Alpha …" (tag `a`), the rest "Beta …" (tag `b`). */
function mixedConfig(count: number): LinkConfig {
  const allLinks: Record<string, Link> = {};
  for (let i = 0; i < count; i++) {
    const alpha = i % 5 === 0;
    allLinks[`k${String(i).padStart(3, '0')}`] = {
      url: `https://example.com/${alpha ? 'alpha' : 'beta'}/${i}`,
      label: `${alpha ? 'Alpha' : 'Beta'} place ${i}`,
      tags: [alpha ? 'a' : 'b'],
    };
  }
  return { allLinks, macros: { alphas: { linkItems: '.a' } } };
}

async function revisionCount(
  request: APIRequestContext,
  baseURL: string,
  name: string,
): Promise<number> {
  const response = await request.get(`${baseURL}/configs/${name}/history`);
  expect(response.status()).toBe(200);
  return ((await response.json()) as { revisions: unknown[] }).revisions.length;
}

async function stored(
  request: APIRequestContext,
  baseURL: string,
  name: string,
): Promise<Record<string, Link>> {
  const links = await serverLinks(request, { baseURL, name });
  expect(links, `config ${name} on the server`).not.toBeNull();
  return links!;
}

function unique(testInfo: TestInfo, stem: string): string {
  return `${stem}-${testInfo.retry}-${Date.now().toString(36)}`;
}

/** Scrolls the bulk bar to the top of the screen, under the sticky editor bar (for a screenshot). */
async function showFromBar(page: Page): Promise<void> {
  await page.getByTestId('bulk-bar').evaluate((bar) => {
    bar.scrollIntoView({ block: 'start' });
    window.scrollBy(0, -130);
  });
}

/** Waits for a bulk action to be done and on the server. */
async function applied(page: Page, words: string | RegExp): Promise<void> {
  await expect(page.getByTestId('bulk-applied')).toContainText(words);
  await expectNothingPending(page);
}

test.describe('at 1280 px', () => {
  test.use({ viewport: { width: 1280, height: 900 } });

  test('bulk-tag 120 filtered links and move 10 to another config, each one revision, with Undo', async ({
    page,
    baseURL,
    request,
  }, testInfo) => {
    test.setTimeout(150_000);
    const name = unique(testInfo, 'bulk-a');
    const other = unique(testInfo, 'bulk-b');
    await putOverRest(baseURL!, name, mixedConfig(600));
    await putOverRest(baseURL!, other, {
      allLinks: { z1: { url: 'https://z.example/1', label: 'Zed' } },
    });
    const before = await stored(request, baseURL!, name);
    const otherBefore = await stored(request, baseURL!, other);
    await openApp(page, baseURL!);
    await openConfig(page, name);

    // 120 links found by the filter, all selected with one press.
    await page.getByLabel('Filter links').fill('alpha');
    await expect(page.getByTestId('links-shown')).toHaveAttribute(
      'data-found',
      '120',
    );
    await page.getByTestId('select-all-shown').click();
    await expect(page.getByTestId('bulk-count')).toHaveAttribute(
      'data-count',
      '120',
    );
    const revisions = await revisionCount(request, baseURL!, name);
    await page.getByLabel('Tags to add or remove').fill('picked, Featured');
    await page.getByTestId('bulk-add-tags').click();
    await applied(page, 'Added picked, Featured to 120 links');
    expect(await revisionCount(request, baseURL!, name)).toBe(revisions + 1);
    const tagged = await stored(request, baseURL!, name);
    const withTag = Object.entries(tagged).filter(([, link]) =>
      link.tags?.includes('picked'),
    );
    expect(withTag).toHaveLength(120);
    // The tag rule stores `Featured` as `featured`, as the link form does.
    expect(withTag.every(([, link]) => link.tags?.includes('featured'))).toBe(
      true,
    );
    expect(withTag.every(([, link]) => link.label?.startsWith('Alpha'))).toBe(
      true,
    );
    await expectAccessible(page, testInfo, 'bulk-1280');
    await screenshot(page, testInfo, 'bulk-1280');
    await showFromBar(page);
    await page.screenshot({ path: testInfo.outputPath('bulk-1280-view.png') });

    await page.getByTestId('bulk-undo').click();
    await expect(page.getByTestId('bulk-applied')).toHaveCount(0);
    await expectNothingPending(page);
    expect(await stored(request, baseURL!, name)).toEqual(before);
    expect(await revisionCount(request, baseURL!, name)).toBe(revisions + 2);

    // Ten links by a shift-click range, moved to the other config: one revision in each.
    await page.getByTestId('clear-selection').click();
    const rows = page.getByTestId('link-row');
    const first = await rows.nth(0).getAttribute('data-link-id');
    const tenth = await rows.nth(9).getAttribute('data-link-id');
    await rows.nth(0).getByTestId('select-link').click();
    await rows
      .nth(9)
      .getByTestId('select-link')
      .click({ modifiers: ['Shift'] });
    await expect(page.getByTestId('bulk-count')).toHaveAttribute(
      'data-count',
      '10',
    );
    const moved = await page
      .locator('[data-testid="link-row"][data-selected]')
      .evaluateAll((trs) =>
        trs.map((tr) => tr.getAttribute('data-link-id') ?? ''),
      );
    expect(moved).toHaveLength(10);
    expect(moved[0]).toBe(first);
    expect(moved.at(-1)).toBe(tenth);
    const otherRevisions = await revisionCount(request, baseURL!, other);
    const ownRevisions = await revisionCount(request, baseURL!, name);
    await page.getByLabel('Move or copy to').selectOption(other);
    await page.getByTestId('bulk-move').click();
    await applied(page, `Moved 10 links to ${other}`);
    expect(await revisionCount(request, baseURL!, name)).toBe(ownRevisions + 1);
    expect(await revisionCount(request, baseURL!, other)).toBe(
      otherRevisions + 1,
    );
    const source = await stored(request, baseURL!, name);
    const target = await stored(request, baseURL!, other);
    for (const id of moved) {
      expect(source[id]).toBeUndefined();
      expect(target[id]).toEqual(before[id]);
    }
    expect(Object.keys(source)).toHaveLength(590);
    await expect(page.getByTestId('bulk-count')).toHaveAttribute(
      'data-count',
      '0',
    );

    await page.getByTestId('bulk-undo').click();
    await expect(page.getByTestId('bulk-applied')).toHaveCount(0);
    await expectNothingPending(page);
    expect(await stored(request, baseURL!, name)).toEqual(before);
    // The order too: the links are back in their places (the store sends that config whole).
    expect(Object.keys(await stored(request, baseURL!, name))).toEqual(
      Object.keys(before),
    );
    expect(await stored(request, baseURL!, other)).toEqual(otherBefore);
  });

  test('the dense table: one line per link, sorted by a column (not the stored order), a cell edited in place', async ({
    page,
    baseURL,
    request,
  }, testInfo) => {
    test.setTimeout(90_000);
    const name = unique(testInfo, 'table');
    await putOverRest(baseURL!, name, mixedConfig(60));
    const storedOrder = Object.keys(await stored(request, baseURL!, name));
    await openApp(page, baseURL!);
    await openConfig(page, name);
    const table = page.getByTestId('links-table');
    await expect(table.locator('thead')).toBeVisible();
    // One line per link: every row about as high as one line of text.
    const heights = await page
      .getByTestId('link-row')
      .evaluateAll((trs) => trs.slice(0, 20).map((tr) => tr.clientHeight));
    expect(Math.max(...heights)).toBeLessThan(48);

    const ids = () =>
      page
        .getByTestId('link-row')
        .evaluateAll((trs) =>
          trs.slice(0, 5).map((tr) => tr.getAttribute('data-link-id')),
        );
    await page.getByTestId('sort-label').click();
    await expect(
      page.locator('th[aria-sort="ascending"]').getByTestId('sort-label'),
    ).toBeVisible();
    // Labels in number order: Alpha place 0, 5, 10, …
    expect(await ids()).toEqual(['k000', 'k005', 'k010', 'k015', 'k020']);
    await page.getByTestId('sort-label').click();
    await expect(page.locator('th[aria-sort="descending"]')).toHaveCount(1);
    expect(await ids()).toEqual(['k059', 'k058', 'k057', 'k056', 'k054']);
    await page.getByTestId('sort-url').click();
    expect(await ids()).toEqual(['k000', 'k005', 'k010', 'k015', 'k020']);
    // Sorting changed the view only.
    expect(Object.keys(await stored(request, baseURL!, name))).toEqual(
      storedOrder,
    );

    // A cell edited in place goes through the link form's checks and into the draft.
    const row = linkRow(page, 'k005');
    await row.locator('[data-cell-edit="url"]').click();
    const cell = page.locator('#cell-input');
    await expect(cell).toBeFocused();
    await cell.fill('javascript:alert(1)');
    await cell.press('Enter');
    await expect(page.locator('#cell-problem')).not.toBeEmpty();
    await expect(cell).toHaveAttribute('aria-invalid', 'true');
    await cell.press('Escape');
    await expect(cell).toHaveCount(0);
    await expect(row.locator('[data-cell-edit="url"]')).toBeFocused();

    await row.locator('[data-cell-edit="label"]').click();
    await page.locator('#cell-input').fill('Renamed in place');
    await page.locator('#cell-input').press('Enter');
    await expect(row.locator('.cell-label')).toContainText('Renamed in place');
    await expect(row.locator('[data-cell-edit="label"]')).toBeFocused();
    await screenshot(page, testInfo, 'table-1280');
    await page.screenshot({ path: testInfo.outputPath('table-1280-view.png') });
    await expectAccessible(page, testInfo, 'table-1280');
    await page.keyboard.press('Control+s');
    await expectNothingPending(page);
    const after = await stored(request, baseURL!, name);
    expect(after['k005']).toEqual({
      url: 'https://example.com/alpha/5',
      label: 'Renamed in place',
      tags: ['a'],
    });
  });

  test('keyboard only: / j k x e Esc ? and a bulk tag, none firing in a text field', async ({
    page,
    baseURL,
    request,
  }, testInfo) => {
    test.setTimeout(90_000);
    const name = unique(testInfo, 'keys');
    await putOverRest(baseURL!, name, mixedConfig(30));
    await openApp(page, baseURL!);
    await openConfig(page, name);
    const filter = page.getByLabel('Filter links');

    await page.keyboard.press('/');
    await expect(filter).toBeFocused();
    // In the field the keys type: j, k, x, e and ? are letters of the filter.
    await page.keyboard.type('beta?jkxe');
    await expect(filter).toHaveValue('beta?jkxe');
    await expect(page.getByTestId('shortcuts-dialog')).not.toBeVisible();
    await filter.fill('beta');
    // Escape leaves the field for the list; j and k move between rows.
    await page.keyboard.press('Escape');
    await expect(filter).toHaveValue('beta');
    await expect(page.locator('#links-heading')).toBeFocused();
    await page.keyboard.press('j');
    await expect(linkRow(page, 'k001')).toBeFocused();
    await page.keyboard.press('j');
    await page.keyboard.press('j');
    await expect(linkRow(page, 'k003')).toBeFocused();
    await page.keyboard.press('k');
    await expect(linkRow(page, 'k002')).toBeFocused();
    await page.keyboard.press('x');
    await page.keyboard.press('j');
    await page.keyboard.press('x');
    await expect(page.getByTestId('bulk-count')).toHaveAttribute(
      'data-count',
      '2',
    );

    // e edits the row; Escape closes the form and gives focus back to its Edit button.
    await page.keyboard.press('e');
    await expect(page.getByTestId('link-edit-row')).toBeVisible();
    await expect(page.getByLabel('Label', { exact: true })).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(page.getByTestId('link-edit-row')).toHaveCount(0);
    await expect(linkRow(page, 'k003').getByTestId('edit-link')).toBeFocused();

    // ? lists the shortcuts in a dialog; Escape closes it.
    await page.keyboard.press('?');
    const help = page.getByTestId('shortcuts-dialog');
    await expect(help).toBeVisible();
    await expect(help.locator('kbd', { hasText: /^j$/ })).toBeVisible();
    await expectAccessible(page, testInfo, 'shortcuts-1280');
    await screenshot(page, testInfo, 'shortcuts-1280');
    await page.keyboard.press('Escape');
    await expect(help).not.toBeVisible();

    // The two selected links tagged from the keyboard: Tab to the bulk bar, type, Enter.
    await tabTo(page, page.getByLabel('Tags to add or remove'), {
      backwards: true,
    });
    await page.keyboard.type('keyed');
    await tabTo(page, page.getByTestId('bulk-add-tags'));
    await page.keyboard.press('Enter');
    await applied(page, 'Added keyed to 2 links');
    const links = await stored(request, baseURL!, name);
    expect(
      Object.keys(links).filter((id) => links[id]?.tags?.includes('keyed')),
    ).toEqual(['k002', 'k003']);
    // Escape clears the selection.
    await page.getByTestId('bulk-undo').focus();
    await page.keyboard.press('Escape');
    await expect(page.getByTestId('bulk-count')).toHaveAttribute(
      'data-count',
      '0',
    );
  });

  test('the main-thread time of a bulk action over 500 selected links (reported, not asserted)', async ({
    page,
    baseURL,
    request,
  }, testInfo) => {
    test.setTimeout(90_000);
    const name = unique(testInfo, 'bulk-500');
    await putOverRest(baseURL!, name, mixedConfig(500));
    await openApp(page, baseURL!);
    await openConfig(page, name);
    await page.getByTestId('select-all-shown').click();
    await expect(page.getByTestId('bulk-count')).toHaveAttribute(
      'data-count',
      '500',
    );
    await page.getByLabel('Tags to add or remove').fill('all500');
    // Measured in the page from the click on: the long tasks of the main thread until the result is
    // on screen (no test polling in between), and the action's own `bulk:apply` measure.
    const measured = page.evaluate(
      () =>
        new Promise<{ apply: number; longTasks: number[]; wall: number }>(
          (done) => {
            const tasks: PerformanceEntry[] = [];
            new PerformanceObserver((list) =>
              tasks.push(...list.getEntries()),
            ).observe({ type: 'longtask' });
            performance.clearMeasures('bulk:apply');
            const button = document.querySelector(
              '[data-testid="bulk-add-tags"]',
            )!;
            button.addEventListener(
              'click',
              () => {
                const start = performance.now();
                const watch = new MutationObserver(() => {
                  if (!document.querySelector('[data-testid="bulk-applied"]'))
                    return;
                  watch.disconnect();
                  requestAnimationFrame(() =>
                    setTimeout(() => {
                      const end = performance.now();
                      done({
                        apply:
                          performance.getEntriesByName('bulk:apply').at(-1)
                            ?.duration ?? -1,
                        longTasks: tasks
                          .filter((task) => task.startTime >= start - 1)
                          .map((task) => task.duration),
                        wall: end - start,
                      });
                    }),
                  );
                });
                watch.observe(document.body, {
                  childList: true,
                  subtree: true,
                });
              },
              { capture: true, once: true },
            );
          },
        ),
    );
    await page.getByTestId('bulk-add-tags').click();
    const timing = await measured;
    await expectNothingPending(page);
    const links = await stored(request, baseURL!, name);
    expect(
      Object.values(links).filter((link) => link.tags?.includes('all500')),
    ).toHaveLength(500);
    const report = {
      'work out the patch, apply, validate (bulk:apply, ms)': Math.round(
        timing.apply,
      ),
      'long tasks from the click to the result on screen (ms each)':
        timing.longTasks.map(Math.round),
      'click to result on screen, wall clock incl. IndexedDB (ms)': Math.round(
        timing.wall,
      ),
    };
    console.log(`bulk action over 500 links: ${JSON.stringify(report)}`);
    testInfo.annotations.push({
      type: 'timing',
      description: JSON.stringify(report),
    });
    await testInfo.attach('timings.json', {
      body: JSON.stringify(report, null, 2),
      contentType: 'application/json',
    });
  });
});

test.describe('at 390 px', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('cards with the bulk bar: select, tag, Undo; axe clean', async ({
    page,
    baseURL,
    request,
  }, testInfo) => {
    test.setTimeout(90_000);
    const name = unique(testInfo, 'bulk-phone');
    await putOverRest(baseURL!, name, mixedConfig(20));
    const before = await stored(request, baseURL!, name);
    await openApp(page, baseURL!);
    await openConfig(page, name);
    // Cards, not a table: the head is hidden.
    await expect(
      page.getByTestId('links-table').locator('thead'),
    ).not.toBeInViewport();
    await linkRow(page, 'k001').getByTestId('select-link').check();
    await linkRow(page, 'k002').getByTestId('select-link').check();
    await page.getByLabel('Tags to add or remove').fill('phone');
    await page.getByTestId('bulk-add-tags').click();
    await applied(page, 'Added phone to 2 links');
    await expectAccessible(page, testInfo, 'bulk-390');
    await page.getByTestId('bulk-bar').scrollIntoViewIfNeeded();
    await screenshot(page, testInfo, 'bulk-390');
    await page.getByTestId('bulk-bar').screenshot({
      path: testInfo.outputPath('bulk-390-bar.png'),
    });
    await page.getByTestId('bulk-undo').click();
    await expect(page.getByTestId('bulk-applied')).toHaveCount(0);
    await expectNothingPending(page);
    expect(await stored(request, baseURL!, name)).toEqual(before);
  });
});
