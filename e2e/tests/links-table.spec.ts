/**
 * The links table at desktop width and the list's keyboard (issue 32): one line per link, sorted by a
 * column (the stored order untouched), a cell edited in place through the link form's checks and
 * saved; a keyboard-only run of `/`, `j`/`k`, `x`, `e`, Escape and `?` (none firing in a text field)
 * ending in a bulk tag reached with Tab. axe clean; screenshots at 1280 px.
 */
import {
  expectAccessible,
  expectNothingPending,
  linkRow,
  openApp,
  openConfig,
  putOverRest,
  screenshot,
  tabTo,
} from '../support/app.js';
import { applied, mixedConfig, stored, unique } from '../support/bulk.js';
import { expect, test } from '../support/fixtures.js';

test.describe('at 1280 px', () => {
  test.use({ viewport: { width: 1280, height: 900 } });

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
});
