/**
 * Every field of a link can be edited right under its row (the row stays in view): label, URL, tags
 * (completed from the config's tags), description, and any other field as a name and a value, checked
 * before it is taken. On a phone, Save stays on screen.
 */
import {
  expectAccessible,
  expectNoHorizontalOverflow,
  linkRow,
  openApp,
  openConfig,
  putOverRest,
  saveConfig,
  screenshot,
  serverLinks,
} from '../support/app.js';
import { bigConfig } from '../support/big-config.js';
import { expect, test } from '../support/fixtures.js';

for (const width of [1280, 390]) {
  test.describe(`at ${width} px`, () => {
    test.use({ viewport: { width, height: width === 390 ? 844 : 900 } });

    test('description and other fields are shown and edited next to the row', async ({
      page,
      baseURL,
      request,
    }, testInfo) => {
      test.slow();
      const name = `edit-fields-${width}`;
      const config = bigConfig(40);
      config.allLinks['l020'] = {
        url: 'https://example.com/l020',
        label: 'Twenty',
        tags: ['park'],
        description: 'The old words',
        cssClass: 'wide',
        meta: { owner: 'web' },
      };
      await putOverRest(baseURL!, name, config);
      await openApp(page, baseURL!);
      await openConfig(page, name);
      const row = linkRow(page, 'l020');
      // The description is seen in the list, and that there are other fields.
      await expect(row).toContainText('The old words');
      await expect(row).toContainText('2 other fields');

      await row.getByTestId('edit-link').click();
      const form = page.getByTestId('link-edit-row');
      // The form opens right under its row, and the row stays on screen.
      await expect(form).toBeVisible();
      expect(
        await row.evaluate((tr) =>
          tr.nextElementSibling?.getAttribute('data-testid'),
        ),
      ).toBe('link-edit-row');
      await expect(row).toBeInViewport();
      await expect(page.getByLabel('Label', { exact: true })).toBeFocused();
      await expect(page.getByLabel('Description')).toHaveValue('The old words');
      await expect(page.getByLabel('Value of cssClass')).toHaveValue('wide');
      await expect(page.getByLabel('Value of meta')).toHaveValue(
        '{"owner":"web"}',
      );

      await page.getByLabel('Description').fill('New words for the menu');
      await page.getByLabel('Value of cssClass').fill('narrow');
      // Tags complete from the config's tags.
      const tags = page.getByLabel('Tags', { exact: true });
      await tags.fill('park, tok');
      await page
        .getByTestId('tag-completions')
        .getByRole('button', { name: 'Use tag tokyo' })
        .click();
      await expect(tags).toHaveValue('park, tokyo, ');
      await expect(tags).toBeFocused();
      // Another field, and a value that is not valid JSON: pointed out, focus on it.
      await page.getByTestId('add-extra').click();
      await expect(page.locator('#extra-key-2')).toBeFocused();
      await page.locator('#extra-key-2').fill('targetWindow');
      await page.getByLabel('Value of targetWindow').fill('_blank');
      await page.getByLabel('Value of meta').fill('{"owner": ');
      await expect(page.locator('#extra-value-1-problem')).toHaveText(
        /not valid JSON/,
      );
      await expectNoHorizontalOverflow(page);
      await screenshot(page, testInfo, `${width}-edit-form`);
      await expectAccessible(page, testInfo, `${width}-edit-form`);
      await page.getByRole('button', { name: 'Update link' }).click();
      await expect(page.getByLabel('Value of meta')).toBeFocused();
      await page.getByLabel('Value of meta').fill('{"owner": "shop"}');
      await page.getByRole('button', { name: 'Update link' }).click();
      await expect(form).toHaveCount(0);
      // Focus goes back to the row's Edit button.
      await expect(row.getByTestId('edit-link')).toBeFocused();
      await expect(row).toContainText('New words for the menu');

      // Save is at hand wherever the person is in the list.
      await linkRow(page, 'l039').scrollIntoViewIfNeeded();
      await expect(page.getByTestId('save-config')).toBeInViewport();
      await saveConfig(page);
      await expect
        .poll(
          async () =>
            (await serverLinks(request, { baseURL: baseURL!, name }))?.['l020'],
        )
        .toEqual({
          url: 'https://example.com/l020',
          label: 'Twenty',
          tags: ['park', 'tokyo'],
          description: 'New words for the menu',
          cssClass: 'narrow',
          meta: { owner: 'shop' },
          targetWindow: '_blank',
        });
    });
  });
}

test('a known field must hold what the schema says', async ({
  page,
  baseURL,
}) => {
  const name = 'edit-known-field';
  await putOverRest(baseURL!, name, {
    allLinks: { a: { url: 'https://example.com/a' } },
  });
  await openApp(page, baseURL!);
  await openConfig(page, name);
  await linkRow(page, 'a').getByTestId('edit-link').click();
  await page.getByTestId('add-extra').click();
  await page.locator('#extra-key-0').fill('hooks');
  await page.getByLabel('Value of hooks').fill('not a list');
  await page.getByRole('button', { name: 'Update link' }).click();
  await expect(page.locator('#extra-value-0-problem')).toHaveText(
    /a list of texts/,
  );
  await expect(page.getByLabel('Value of hooks')).toBeFocused();
  await page.getByLabel('Value of hooks').fill('["track"]');
  await page.getByRole('button', { name: 'Update link' }).click();
  await expect(page.getByTestId('link-edit-row')).toHaveCount(0);
  await expect(linkRow(page, 'a')).toContainText('1 other field');
});
