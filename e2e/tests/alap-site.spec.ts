/**
 * Alap's real page client on a website of another origin (issue #30): a static site on its own loopback
 * port loads Alap's own bundles, reads a published config once through `createRemoteStore({ baseUrl:
 * '<server>/published' })` and once through the server's `embed.js`, and its `<alap-link>` menu shows
 * exactly the published links: a draft never, a publish at once, a rollback the old menu again; a site
 * whose origin the publish record does not name gets no config at all.
 */
import type { Browser, Page } from '@playwright/test';
import { startStaticSite } from '../support/static-site.js';
import type { StaticSite } from '../support/static-site.js';
import { ServerProcess } from '../support/server.js';
import { expect, test } from '../support/fixtures.js';

const ADMIN = 'e2e-alap-admin';
const NAME = 'site-a/menu';
/** embed.js reads again every this many seconds (its smallest pace). */
const LIVE_SECONDS = 5;

const link = (label: string, tags: string[]) => ({
  label,
  url: `https://${label.toLowerCase().replaceAll(' ', '-')}.example/`,
  tags,
});

const FIRST = {
  allLinks: {
    brooklyn: link('Brooklyn Bridge', ['nyc', 'bridge']),
    manhattan: link('Manhattan Bridge', ['nyc', 'bridge']),
    park: link('Central Park', ['nyc', 'park']),
    golden: link('Golden Gate', ['sf', 'bridge']),
  },
};
const FIRST_MENU = ['Brooklyn Bridge', 'Manhattan Bridge'];
const SECOND = {
  allLinks: {
    ...FIRST.allLinks,
    williamsburg: link('Williamsburg Bridge', ['nyc', 'bridge']),
  },
};
const SECOND_MENU = [...FIRST_MENU, 'Williamsburg Bridge'];

/** The service with an admin token, and a reviewer's `publish` key. */
async function service(server: ServerProcess) {
  const call = async (
    path: string,
    init: { method: string; body?: unknown; key?: string },
  ) => {
    const response = await fetch(`${server.baseURL}${path}`, {
      method: init.method,
      headers: {
        Authorization: `Bearer ${init.key ?? ADMIN}`,
        'Content-Type': 'application/json',
      },
      body: init.body === undefined ? null : JSON.stringify(init.body),
    });
    expect(response.status, `${init.method} ${path}`).toBeLessThan(300);
    return response.status === 204 ? null : response.json();
  };
  const path = `/configs/${encodeURIComponent(NAME)}`;
  const reviewer = (await call('/keys', {
    method: 'POST',
    body: { label: 'reviewer', scope: 'publish', configs: ['site-a/*'] },
  })) as { secret: string };
  return {
    draft: (config: unknown) => call(path, { method: 'PUT', body: config }),
    publish: async (body: { rev?: number; origins?: string[] }) =>
      (await call(`${path}/publish`, {
        method: 'POST',
        body,
        key: reviewer.secret,
      })) as { rev: number },
  };
}

/** The labels of the menu the page's `<alap-link>` opens (closed again afterwards). */
async function menu(page: Page): Promise<string[]> {
  const anchors = page.locator('alap-link a');
  await page.locator('alap-link').click();
  await expect(anchors.first()).toBeVisible();
  const labels = (await anchors.allTextContents()).map((t) => t.trim());
  await page.keyboard.press('Escape');
  return labels;
}

/** A new browser context (an empty HTTP cache: a new visitor) on `url`, waiting for the page's script. */
async function visit(browser: Browser, url: string): Promise<Page> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(url);
  await expect(page.locator('body')).not.toHaveAttribute(
    'data-state',
    'loading',
  );
  return page;
}

test.describe('a published menu on a website, in Alap', () => {
  let server: ServerProcess;
  let siteA: StaticSite;
  let siteB: StaticSite;

  test.beforeAll(async () => {
    server = await ServerProcess.launch({ API_TOKEN: ADMIN });
    const embed = { config: NAME, live: LIVE_SECONDS };
    siteA = await startStaticSite(server.baseURL, embed);
    siteB = await startStaticSite(server.baseURL, embed);
  });
  test.afterAll(async () => {
    await siteA.close();
    await siteB.close();
    await server.dispose();
  });

  test('createRemoteStore and embed.js show the published menu, follow publishes and rollbacks; another site gets nothing', async ({
    browser,
  }) => {
    test.setTimeout(90_000);
    const api = await service(server);
    await api.draft(FIRST);
    const first = await api.publish({ origins: [siteA.origin] });
    expect(first.rev).toBe(1);
    // A draft edit, not published yet.
    await api.draft(SECOND);

    const remote = await visit(browser, siteA.remotePage(NAME));
    await expect(remote.locator('body')).toHaveAttribute(
      'data-state',
      'loaded',
    );
    expect(await menu(remote)).toEqual(FIRST_MENU);

    const embedded = await visit(browser, siteA.embedPage);
    await expect(embedded.locator('body')).toHaveAttribute(
      'data-state',
      'loaded',
    );
    expect(await menu(embedded)).toEqual(FIRST_MENU);
    const firstEtag = await embedded.locator('body').getAttribute('data-etag');

    // Publish the draft: a new visitor sees it, and the open embed page follows within its pace.
    await api.publish({});
    expect(await menu(await visit(browser, siteA.remotePage(NAME)))).toEqual(
      SECOND_MENU,
    );
    await expect(embedded.locator('body')).not.toHaveAttribute(
      'data-etag',
      firstEtag ?? '',
      { timeout: (LIVE_SECONDS + 10) * 1000 },
    );
    expect(await menu(embedded)).toEqual(SECOND_MENU);
    const secondEtag = await embedded.locator('body').getAttribute('data-etag');

    // Roll back to revision 1: the old menu comes back, on both pages.
    await api.publish({ rev: 1 });
    expect(await menu(await visit(browser, siteA.remotePage(NAME)))).toEqual(
      FIRST_MENU,
    );
    await expect(embedded.locator('body')).toHaveAttribute(
      'data-etag',
      firstEtag ?? '',
      { timeout: (LIVE_SECONDS + 10) * 1000 },
    );
    expect(secondEtag).not.toBe(firstEtag);
    expect(await menu(embedded)).toEqual(FIRST_MENU);

    // Site B is not among the origins: neither way reads the config, and its menu stays empty.
    for (const url of [siteB.remotePage(NAME), siteB.embedPage]) {
      const other = await visit(browser, url);
      await expect(other.locator('body'), url).toHaveAttribute(
        'data-state',
        'error',
      );
      await other.locator('alap-link').click();
      await expect(other.locator('alap-link a')).toHaveCount(0);
    }
  });
});
