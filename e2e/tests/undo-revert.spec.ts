/**
 * Mistakes can be taken back: deleting a link offers "Undo" for some seconds (focus goes to it, not to
 * the next row's Delete), and "Revert to saved" discards the draft after saying what would be lost.
 */
import {
  addLink,
  expectAccessible,
  linkRow,
  openApp,
  openConfig,
  putOverRest,
  questionDialog,
  screenshot,
} from '../support/app.js';
import { expect, test } from '../support/fixtures.js';

const config = {
  allLinks: {
    a: { url: 'https://example.com/a', label: 'Alpha' },
    b: { url: 'https://example.com/b', label: 'Beta', tags: ['x'] },
    c: { url: 'https://example.com/c', label: 'Gamma' },
  },
};

for (const width of [1280, 390]) {
  test.describe(`at ${width} px`, () => {
    test.use({ viewport: { width, height: width === 390 ? 844 : 900 } });

    test('a deleted link comes back with Undo, in its place', async ({
      page,
      baseURL,
    }, testInfo) => {
      const name = `undo-${width}`;
      await putOverRest(baseURL!, name, config);
      await page.clock.install();
      await openApp(page, baseURL!);
      await openConfig(page, name);
      const rows = page.getByTestId('link-row');

      await linkRow(page, 'b')
        .getByRole('button', { name: 'Delete link b' })
        .click();
      await expect(linkRow(page, 'b')).toHaveCount(0);
      const toast = page.getByTestId('undo-toast');
      await expect(toast).toContainText('Deleted link b.');
      // Focus is on Undo: Enter again takes the deletion back instead of deleting the next link.
      const undo = toast.getByRole('button', { name: 'Undo deleting link b' });
      await expect(undo).toBeFocused();
      await expect(page.getByTestId('draft-state')).toHaveText(/Unsaved edits/);
      await expect(page.getByTestId('announcer')).toContainText(
        'Deleted link “b” from the draft',
      );
      await screenshot(page, testInfo, `${width}-undo-offered`);
      await expectAccessible(page, testInfo, `${width}-undo-offered`);
      await page.keyboard.press('Enter');
      await expect(toast).toHaveCount(0);
      await expect(rows).toHaveCount(3);
      expect(
        await rows.evaluateAll((all) =>
          all.map((row) => row.dataset['linkId']),
        ),
      ).toEqual(['a', 'b', 'c']);
      await expect(linkRow(page, 'b').getByTestId('edit-link')).toBeFocused();
      // Back as saved: nothing unsaved is left.
      await expect(page.getByTestId('draft-state')).not.toHaveText(
        /Unsaved edits/,
      );

      // Left alone (focus elsewhere), the offer ends after some seconds.
      await linkRow(page, 'c')
        .getByRole('button', { name: 'Delete link c' })
        .click();
      await expect(toast).toBeVisible();
      await page.getByLabel('Filter links').focus();
      await page.clock.fastForward(5_000);
      await expect(toast).toBeVisible();
      await page.clock.fastForward(6_000);
      await expect(toast).toHaveCount(0);
      await expect(linkRow(page, 'c')).toHaveCount(0);
    });

    test('Revert to saved says what would be lost, then discards the draft', async ({
      page,
      baseURL,
    }, testInfo) => {
      const name = `revert-${width}`;
      await putOverRest(baseURL!, name, config);
      await openApp(page, baseURL!);
      await openConfig(page, name);
      const revert = page.getByTestId('revert-config');
      await expect(revert).toBeDisabled();

      await linkRow(page, 'b').getByTestId('edit-link').click();
      await page.getByLabel('Label', { exact: true }).fill('Beta, renamed');
      await page.getByRole('button', { name: 'Update link' }).click();
      await addLink(page, { id: 'd', url: 'https://example.com/d' });
      await linkRow(page, 'c')
        .getByRole('button', { name: 'Delete link c' })
        .click();
      await expect(revert).toBeEnabled();

      await revert.click();
      const dialog = questionDialog(page);
      await expect(dialog).toContainText(
        '1 link added (“d”); 1 link deleted (“c”); 1 link changed (“b”)',
      );
      await screenshot(page, testInfo, `${width}-revert-question`);
      await dialog.getByRole('button', { name: 'Keep editing' }).click();
      await expect(revert).toBeFocused();
      await expect(linkRow(page, 'd')).toBeVisible();

      await revert.click();
      await dialog.getByRole('button', { name: 'Discard edits' }).click();
      await expect(page.getByTestId('editor-heading')).toBeFocused();
      await expect(linkRow(page, 'd')).toHaveCount(0);
      await expect(linkRow(page, 'c')).toBeVisible();
      await expect(linkRow(page, 'b')).toContainText('Beta');
      await expect(linkRow(page, 'b')).not.toContainText('renamed');
      await expect(page.getByTestId('draft-state')).toHaveText(
        'Saved in this browser and on the server.',
      );
      await expect(revert).toBeDisabled();
      await expect(page.getByTestId('undo-toast')).toHaveCount(0);
    });
  });
}
