/**
 * The Publish panel (issue 30): a reviewer publishes the draft (under the ETag of the draft shown) for
 * one site origin; an edit of the draft never reaches the site view (`/published/configs/NAME`) until
 * it is published; the panel shows what the draft changes; Roll back publishes an older revision;
 * Unpublish (confirmed) takes the menu off. A write key sees the state with the actions off and the
 * reason. axe finds nothing, at 1280 and 390 px, with screenshots kept.
 */
import type { Page, TestInfo } from '@playwright/test';
import {
  addLinkAndSave,
  expectAccessible,
  expectNoHorizontalOverflow,
  expectNothingPending,
  openApp,
  openConfig,
  questionDialog,
  screenshot,
} from '../support/app.js';
import { ServerProcess } from '../support/server.js';
import { expect, test } from '../support/fixtures.js';

const ADMIN = 'e2e-admin-token';
const NAME = 'site-a/menu';
const PATH = `/configs/${encodeURIComponent(NAME)}`;

async function signIn(page: Page, secret: string): Promise<void> {
  await page.getByTestId('open-settings').click();
  const dialog = page.getByTestId('settings-dialog');
  await dialog.getByLabel('Access key or server token').fill(secret);
  await dialog.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(dialog).toBeHidden();
}

/** The link ids the site is served (`null`: not published). */
async function siteLinks(server: ServerProcess): Promise<string[] | null> {
  const response = await fetch(`${server.baseURL}/published${PATH}`);
  if (response.status === 404) return null;
  const body = (await response.json()) as {
    config: { allLinks: Record<string, unknown> };
  };
  return Object.keys(body.config.allLinks);
}

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
    // The panel alone, as docs/web-app.md shows it: clipped from the whole page (scrolled to the
    // top), so the sticky editor bar stays where it belongs instead of covering the panel.
    const path = testInfo.outputPath(`${name}-only-${width}.png`);
    await page.evaluate(() => window.scrollTo(0, 0));
    const box = await page.getByTestId('publish-panel').boundingBox();
    if (box === null) throw new Error('the publish panel is not shown');
    await page.screenshot({ path, fullPage: true, clip: box });
    await testInfo.attach(`${name}-only-${width}`, {
      path,
      contentType: 'image/png',
    });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

/** Opens the Publish panel afresh (it reads the server's record and revisions when it opens). */
async function openPanel(page: Page) {
  const button = page.getByTestId('open-publish');
  if ((await button.getAttribute('aria-expanded')) === 'true')
    await button.click();
  await button.click();
  const panel = page.getByTestId('publish-panel');
  await expect(panel.getByRole('heading', { level: 3 })).toBeFocused();
  await expect(panel).toHaveAttribute('aria-busy', 'false');
  return panel;
}

test('publish panel: publish, edit the draft, publish again, roll back, unpublish; a write key may not', async ({
  page,
}, testInfo) => {
  test.slow();
  const server = await ServerProcess.launch({ API_TOKEN: ADMIN });
  try {
    const put = await fetch(`${server.baseURL}${PATH}`, {
      method: 'PUT',
      headers: {
        'Content-Type': 'application/json',
        Authorization: `Bearer ${ADMIN}`,
      },
      body: JSON.stringify({
        allLinks: {
          one: { label: 'One', url: 'https://example.com/one', tags: ['nyc'] },
        },
      }),
    });
    expect(put.status).toBeLessThan(300);
    await page.setViewportSize({ width: 1280, height: 900 });
    await openApp(page, server.baseURL);
    await signIn(page, ADMIN);
    await openConfig(page, NAME);

    // Not published yet; publish revision 1 for one site.
    let panel = await openPanel(page);
    await expect(panel.getByTestId('published-rev')).toHaveText(
      'Not published: sites get no menu.',
    );
    await expect(panel.getByTestId('draft-rev')).toHaveAttribute(
      'data-rev',
      '1',
    );
    await expect(panel.getByTestId('embed-snippet')).toHaveValue(
      `<script src="${server.baseURL}/published/embed.js" data-config="${NAME}" defer></script>`,
    );
    await panel.getByTestId('origins-listed').check();
    await panel.getByTestId('origin-input').fill('https://site-a.example/');
    await panel.getByTestId('origin-add').click();
    await expect(panel.getByTestId('publish-problem')).toContainText(
      'is not a site origin',
    );
    await panel.getByTestId('origin-input').fill('https://site-a.example');
    await panel.getByTestId('origin-add').click();
    await expect(panel.getByTestId('origin-item')).toHaveText([
      /https:\/\/site-a\.example/,
    ]);
    await panel.getByTestId('publish-draft').click();
    await expect(panel.getByTestId('published-rev')).toHaveAttribute(
      'data-rev',
      '1',
    );
    await expect(panel.getByTestId('publish-note')).toHaveText(
      'Published revision 1.',
    );
    expect(await siteLinks(server)).toEqual(['one']);
    const record = await fetch(`${server.baseURL}${PATH}/publish`, {
      headers: { Authorization: `Bearer ${ADMIN}` },
    });
    expect(await record.json()).toMatchObject({
      rev: 1,
      origins: ['https://site-a.example'],
      hideBroken: false,
    });

    // A draft edit: saved, the site still gets revision 1; the panel shows what the draft adds.
    await addLinkAndSave(page, {
      id: 'two',
      label: 'Two',
      url: 'https://example.com/two',
      tags: ['nyc'],
    });
    await expectNothingPending(page);
    expect(await siteLinks(server)).toEqual(['one']);
    // The open panel follows the draft once the save reached the server.
    await expect(panel.getByTestId('draft-rev')).toHaveAttribute(
      'data-rev',
      '2',
    );
    await expect(panel.getByTestId('diff-added')).toHaveText(
      /Added \(1\):\s*two/,
    );

    // Publish again: the site gets the new draft.
    await panel.getByTestId('hide-broken').check();
    await panel.getByTestId('publish-draft').click();
    await expect(panel.getByTestId('published-rev')).toHaveAttribute(
      'data-rev',
      '2',
    );
    await expect(panel.getByTestId('publish-diff')).toHaveAttribute(
      'data-same',
      'true',
    );
    expect(await siteLinks(server)).toEqual(['one', 'two']);

    // Roll back to revision 1, confirmed in the dialog.
    await panel.getByTestId('rollback-rev').selectOption('1');
    await panel.getByTestId('rollback').click();
    await questionDialog(page)
      .getByRole('button', { name: 'Publish revision 1' })
      .click();
    await expect(panel.getByTestId('published-rev')).toHaveAttribute(
      'data-rev',
      '1',
    );
    await expect(panel.getByTestId('publish-note')).toHaveText(
      'Rolled back: revision 1 is published.',
    );
    await expect(panel.getByTestId('hide-broken')).toBeChecked();
    expect(await siteLinks(server)).toEqual(['one']);
    await expect(panel.getByTestId('diff-added')).toBeVisible();
    await checkBothWidths(page, testInfo, 'publish-panel');

    // Unpublish, confirmed: the site gets nothing; the draft stays.
    await panel.getByTestId('unpublish').click();
    await questionDialog(page)
      .getByRole('button', { name: 'Unpublish' })
      .click();
    await expect(panel.getByTestId('published-rev')).toHaveText(
      'Not published: sites get no menu.',
    );
    expect(await siteLinks(server)).toBeNull();
    await panel.getByTestId('publish-draft').click();
    await expect(panel.getByTestId('published-rev')).toHaveAttribute(
      'data-rev',
      '2',
    );

    // A write key sees the state, with the actions off and why.
    const created = await fetch(`${server.baseURL}/keys`, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        Authorization: `Bearer ${ADMIN}`,
      },
      body: JSON.stringify({
        label: 'editor',
        scope: 'write',
        configs: ['site-a/*'],
      }),
    });
    const { secret } = (await created.json()) as { secret: string };
    await signIn(page, secret);
    await openConfig(page, NAME);
    panel = await openPanel(page);
    await expect(panel.getByTestId('published-rev')).toHaveAttribute(
      'data-rev',
      '2',
    );
    await expect(panel.getByTestId('publish-refusal')).toHaveText(
      `Publishing is off: this key may only read and write ${NAME}; publishing needs a key with the publish scope.`,
    );
    for (const action of ['unpublish', 'apply-publish-settings', 'rollback'])
      await expect(panel.getByTestId(action)).toBeDisabled();
    await expect(panel.getByTestId('hide-broken')).toBeDisabled();
    await checkBothWidths(page, testInfo, 'publish-panel-write-key');
    // The server refuses it too.
    const refused = await fetch(`${server.baseURL}${PATH}/publish`, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        Authorization: `Bearer ${secret}`,
      },
      body: '{}',
    });
    expect(refused.status).toBe(403);
  } finally {
    await server.dispose();
  }
});
