/**
 * Duplicates and the order of a menu (issue 32). Two links that differ only by `utm_source` and a
 * trailing slash are found by the shared URL rule and merged (a field picked from the removed side, tags
 * united, the macro that named the removed id rewritten), as one revision sent as one merge patch, and
 * Undo restores the config in one step; the link form warns while a URL the config has is typed. A link
 * dragged to the top leads the tester's menu preview, on the server and after a reload; keyboard moves
 * do the same. axe clean and screenshots at 1280 and 390 px.
 */
import type {
  APIRequestContext,
  Locator,
  Page,
  Request,
  TestInfo,
} from '@playwright/test';
import {
  expectAccessible,
  expectNothingPending,
  openApp,
  openConfig,
  saveConfig,
} from '../support/app.js';
import { expect, test } from '../support/fixtures.js';

type Links = Record<
  string,
  { url: string; label?: string; tags?: string[]; description?: string }
>;
interface Stored {
  allLinks: Links;
  macros?: Record<string, { linkItems: string }>;
}

/** Links enough to make a config larger than the store's smallest patch (2 KiB). */
function filler(count: number, tag: string): Links {
  const links: Links = {};
  for (let i = 0; i < count; i++) {
    links[`f${i}`] = {
      url: `https://filler.example/page/${i}`,
      label: `Filler page number ${i}`,
      tags: [tag],
    };
  }
  return links;
}

async function stored(
  request: APIRequestContext,
  baseURL: string,
  name: string,
): Promise<Stored> {
  const response = await request.get(`${baseURL}/configs/${name}`);
  return ((await response.json()) as { config: Stored }).config;
}

async function revisionCount(
  request: APIRequestContext,
  baseURL: string,
  name: string,
) {
  const response = await request.get(`${baseURL}/configs/${name}/history`);
  return ((await response.json()) as { revisions: unknown[] }).revisions.length;
}

/** Records the page's writes of config `name` (method), from now on. */
function recordWrites(page: Page, name: string): string[] {
  const writes: string[] = [];
  page.on('request', (request: Request) => {
    const path = new URL(request.url()).pathname;
    if (
      path === `/configs/${encodeURIComponent(name)}` &&
      ['PUT', 'PATCH'].includes(request.method())
    )
      writes.push(request.method());
  });
  return writes;
}

/** A picture of one part of the page (a whole page of 30 link cards is thousands of pixels tall). */
async function partShot(part: Locator, testInfo: TestInfo, name: string) {
  const path = testInfo.outputPath(`${name}.png`);
  // The editor bar and the tester stay in view while the page scrolls: not over the part pictured.
  const pinned = (position: string) =>
    part.page().evaluate((value) => {
      for (const element of document.querySelectorAll<HTMLElement>(
        '.editor-bar, .tester',
      ))
        element.style.position = value;
    }, position);
  await pinned('static');
  await part.scrollIntoViewIfNeeded();
  await part.screenshot({ path });
  await pinned('');
  await testInfo.attach(name, { path, contentType: 'image/png' });
}

/** The ids of the tester's menu preview, in order. */
async function previewIds(page: Page): Promise<string[]> {
  const items = page.getByTestId('menu-preview').getByTestId('menu-item');
  return items.evaluateAll((nodes) =>
    nodes.map((node) => node.getAttribute('data-link-id') ?? ''),
  );
}

test('duplicates: links differing only by utm_source and a trailing slash are found and merged; Undo in one step', async ({
  page,
  baseURL,
  request,
}, testInfo) => {
  test.setTimeout(120_000);
  const stamp = `${testInfo.retry}-${Date.now().toString(36)}`;
  const name = `dupes-${stamp}`;
  const other = `dupes-other-${stamp}`;
  const config = {
    allLinks: {
      guide: {
        url: 'https://example.com/guide/',
        label: 'Guide',
        tags: ['docs'],
      },
      elsewhere: { url: 'https://example.org/x', label: 'Elsewhere' },
      guide_news: {
        url: 'https://example.com/guide?utm_source=newsletter',
        label: 'The guide',
        tags: ['news'],
        description: 'From the newsletter',
      },
      ...filler(30, 'filler'),
    },
    macros: {
      reading: { linkItems: 'guide_news | elsewhere' },
      docs: { linkItems: '@reading + .docs' },
    },
  };
  expect(
    (
      await request.put(`${baseURL}/configs/${name}`, { data: config })
    ).status(),
  ).toBe(204);
  await request.put(`${baseURL}/configs/${other}`, {
    data: { allLinks: { g: { url: 'http://www.example.com/guide#top' } } },
  });
  const before = await stored(request, baseURL!, name);
  const revisions = await revisionCount(request, baseURL!, name);

  await page.setViewportSize({ width: 1280, height: 900 });
  await openApp(page, baseURL!);
  await openConfig(page, name);

  // Typing a URL the config has: the form says which link has it.
  await page
    .getByLabel('URL', { exact: true })
    .fill('http://www.example.com/guide#top');
  await expect(page.locator('#link-url-hint')).toContainText(
    'This URL is already in this config: “guide”, “guide_news”',
  );
  await page.getByLabel('URL', { exact: true }).fill('');

  await page.getByTestId('duplicates').locator('summary').click();
  const group = page.getByTestId('duplicate-group');
  await expect(group).toHaveCount(1);
  await expect(group).toContainText('guide');
  await expect(group).toContainText('guide_news');
  await group.getByTestId('merge-start').click();
  const panel = page.getByTestId('merge-panel');
  await expect(panel.getByRole('heading')).toHaveText(
    'Merge “guide_news” into “guide”',
  );
  await panel.locator('[data-field="label"][data-side="remove"]').check();
  await expect(panel.getByTestId('merge-tags')).toHaveText('Tags: docs, news');

  // Across configs: the other config's link has the same page.
  await page.getByTestId('duplicates-look-across').click();
  await expect(page.getByTestId('duplicates-across-count')).toContainText(
    '1 URL is in more than one of the',
  );
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
    await expectAccessible(page, testInfo, `duplicates-merge-${width}`);
    await partShot(
      page.getByTestId('duplicates'),
      testInfo,
      `duplicates-merge-${width}`,
    );
  }
  await page.setViewportSize({ width: 1280, height: 900 });

  const writes = recordWrites(page, name);
  await panel.getByTestId('merge-apply').click();
  const applied = page.getByTestId('merge-applied');
  await expect(applied).toBeVisible();
  await expect(applied.getByTestId('merge-references')).toContainText(
    'macros.reading: guide_news | elsewhere → guide | elsewhere',
  );
  await expectNothingPending(page);
  expect(writes).toEqual(['PATCH']);
  expect(await revisionCount(request, baseURL!, name)).toBe(revisions + 1);
  const after = await stored(request, baseURL!, name);
  expect(Object.keys(after.allLinks).slice(0, 3)).toEqual([
    'guide',
    'elsewhere',
    'f0',
  ]);
  expect(after.allLinks['guide_news']).toBeUndefined();
  expect(after.allLinks['guide']).toEqual({
    url: 'https://example.com/guide/',
    label: 'The guide',
    tags: ['docs', 'news'],
    description: 'From the newsletter',
  });
  expect(after.macros?.['reading']?.linkItems).toBe('guide | elsewhere');
  // A macro reference is not an id: untouched.
  expect(after.macros?.['docs']?.linkItems).toBe('@reading + .docs');
  await expect(page.getByTestId('duplicate-group')).toHaveCount(0);

  await applied.getByTestId('merge-undo').click();
  await expect(page.getByTestId('merge-applied')).toHaveCount(0);
  await expectNothingPending(page);
  expect(await stored(request, baseURL!, name)).toEqual(before);
  expect(
    Object.keys((await stored(request, baseURL!, name)).allLinks).slice(0, 3),
  ).toEqual(['guide', 'elsewhere', 'guide_news']);
  expect(await revisionCount(request, baseURL!, name)).toBe(revisions + 2);
});

test('order: a link dragged to the top leads the menu preview, on the server and after a reload; keyboard moves', async ({
  page,
  baseURL,
  request,
}, testInfo) => {
  test.setTimeout(120_000);
  const name = `order-${testInfo.retry}-${Date.now().toString(36)}`;
  const menu: Links = {};
  for (const id of ['alpha', 'bravo', 'charlie', 'delta', 'echo'])
    menu[id] = {
      url: `https://${id}.example`,
      label: id.toUpperCase(),
      tags: ['menu'],
    };
  await request.put(`${baseURL}/configs/${name}`, {
    data: { allLinks: { ...menu, ...filler(20, 'filler') } },
  });
  await page.setViewportSize({ width: 1280, height: 900 });
  await openApp(page, baseURL!);
  await openConfig(page, name);
  await page.locator('#query-expression').fill('.menu');
  await expect
    .poll(() => previewIds(page))
    .toEqual(['alpha', 'bravo', 'charlie', 'delta', 'echo']);

  await page.getByTestId('order').locator('summary').click();
  const row = (id: string) =>
    page.locator(`[data-testid="order-row"][data-link-id="${id}"]`);
  await row('delta').dragTo(row('alpha'), {
    targetPosition: { x: 20, y: 2 },
  });
  await expect
    .poll(() => previewIds(page))
    .toEqual(['delta', 'alpha', 'bravo', 'charlie', 'echo']);
  const writes = recordWrites(page, name);
  await saveConfig(page);
  await expectNothingPending(page);
  // A merge patch keeps members in place, so the new order goes as the whole config.
  expect(writes).toEqual(['PUT']);
  const ids = Object.keys((await stored(request, baseURL!, name)).allLinks);
  expect(ids.slice(0, 5)).toEqual([
    'delta',
    'alpha',
    'bravo',
    'charlie',
    'echo',
  ]);

  await openApp(page, baseURL!);
  await openConfig(page, name);
  await page.locator('#query-expression').fill('.menu');
  await expect
    .poll(() => previewIds(page))
    .toEqual(['delta', 'alpha', 'bravo', 'charlie', 'echo']);

  // Keyboard: Alt+↑ one place, Alt+Shift+↑ to the top, a row's "Move to the bottom" button.
  await page.getByTestId('order').locator('summary').click();
  await row('echo').focus();
  await page.keyboard.press('Alt+ArrowUp');
  await expect(row('echo')).toBeFocused();
  await expect
    .poll(() => previewIds(page))
    .toEqual(['delta', 'alpha', 'bravo', 'echo', 'charlie']);
  await page.keyboard.press('Alt+Shift+ArrowUp');
  await expect(row('echo')).toBeFocused();
  await row('delta')
    .getByRole('button', { name: 'Move to the bottom: DELTA (delta)' })
    .click();
  await expect
    .poll(() => previewIds(page))
    .toEqual(['echo', 'alpha', 'bravo', 'charlie', 'delta']);
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
    await expectAccessible(page, testInfo, `order-${width}`);
    await partShot(page.getByTestId('order'), testInfo, `order-${width}`);
    await partShot(
      page.getByTestId('tester'),
      testInfo,
      `order-tester-${width}`,
    );
  }
  await saveConfig(page);
  await expectNothingPending(page);
  const keyed = Object.keys((await stored(request, baseURL!, name)).allLinks);
  expect(keyed.slice(0, 4)).toEqual(['echo', 'alpha', 'bravo', 'charlie']);
  expect(keyed.at(-1)).toBe('delta');
});
