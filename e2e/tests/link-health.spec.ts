/**
 * Link health in the page (issue 31), against a server with the link checker on (`LINK_CHECK=on`,
 * `LINK_CHECK_CONFIRM=1m`, the smallest it takes) whose links point at test sites this spec opens on
 * 127.0.0.1 (allowed through `OUTBOUND_ALLOW`, nothing else is reached): a badge per link with its
 * evidence, "Check now", the facets "Broken (n)" and "Moved (n)", "Use the new URL" for one link and
 * for all moved links (each one revision on the server), and "Check now" off for a key that may only
 * read. At 1280 and 390 px, with axe. The minute between the two failures passes on the server's clock
 * (`moveClock`, a step of 61 s) instead of being waited for.
 */
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from '@playwright/test';
import type { ConfigLinkHealthOutput, HistoryOutput } from '@linkconfig/shared';
import {
  expectAccessible,
  linkRow,
  openApp,
  openConfig,
  screenshot,
} from '../support/app.js';
import { ServerProcess } from '../support/server.js';
import { expect, test } from '../support/fixtures.js';

/** Just over LINK_CHECK_CONFIRM (1 minute): how far the server's clock moves between the two failures. */
const CONFIRM_STEP_MS = 61_000;
const WRITE = 'e2e-health-write';
const READ = 'e2e-health-read';
const NAME = 'site-menu';

/** A site on 127.0.0.1: no robots.txt, pages that answer 200, move for good, move for now, or are gone. */
function startSite(): Promise<{
  server: Server;
  origin: string;
  port: number;
}> {
  const server = createServer((request, response) => {
    const path = request.url ?? '/';
    const moved = /^\/old(\d*)$/.exec(path);
    if (moved) {
      response
        .writeHead(moved[1] === '2' ? 308 : 301, {
          Location: `/new${moved[1]}`,
        })
        .end();
    } else if (path === '/for-now') {
      response.writeHead(302, { Location: '/ok' }).end();
    } else if (path === '/ok' || path.startsWith('/new')) {
      response.writeHead(200, { 'Content-Type': 'text/html' }).end('<p>ok</p>');
    } else {
      response.writeHead(404).end();
    }
  });
  return new Promise((done) =>
    server.listen(0, '127.0.0.1', () => {
      const port = (server.address() as AddressInfo).port;
      done({ server, origin: `http://127.0.0.1:${port}`, port });
    }),
  );
}

let sites: { server: Server; origin: string; port: number }[] = [];
let server: ServerProcess;

const auth = (token: string) => ({ Authorization: `Bearer ${token}` });

async function api<T>(path: string, init: RequestInit = {}): Promise<T> {
  const response = await fetch(`${server.baseURL}${path}`, {
    ...init,
    headers: {
      'Content-Type': 'application/json',
      ...auth(WRITE),
      ...init.headers,
    },
  });
  expect(response.status, path).toBeLessThan(300);
  const text = await response.text();
  return (text === '' ? null : JSON.parse(text)) as T;
}

const health = () =>
  api<ConfigLinkHealthOutput>(`/configs/${NAME}/links/health`);
const revisions = async () =>
  (await api<HistoryOutput>(`/configs/${NAME}/history`)).revisions.length;
const storedUrl = async (id: string) =>
  (
    await api<{ config: { allLinks: Record<string, { url: string }> } }>(
      `/configs/${NAME}`,
    )
  ).config.allLinks[id]?.url;

async function signIn(page: Page, token: string): Promise<void> {
  await page.getByTestId('open-settings').click();
  const dialog = page.getByTestId('settings-dialog');
  await dialog.getByLabel('Access key or server token').fill(token);
  await dialog.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(dialog).toBeHidden();
}

const badge = (page: Page, id: string) =>
  linkRow(page, id).getByTestId('link-health');
const facet = (page: Page, which: string) =>
  page.locator(`[data-testid="health-facet"][data-facet="${which}"]`);

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  sites = await Promise.all([startSite(), startSite(), startSite()]);
  server = await ServerProcess.launch(
    {
      API_TOKEN: WRITE,
      READ_TOKEN: READ,
      LINK_CHECK: 'on',
      LINK_CHECK_CONFIRM: '1m',
      OUTBOUND_ALLOW: sites.map((site) => `127.0.0.1:${site.port}`).join(','),
    },
    { clockStepMs: CONFIRM_STEP_MS },
  );
  const [a, b, c] = sites.map((site) => site.origin);
  await api(`/configs/${NAME}`, {
    method: 'PUT',
    body: JSON.stringify({
      allLinks: {
        home: { label: 'Home', url: `${a}/ok`, tags: ['main'] },
        docs: { label: 'Docs', url: `${a}/old#install`, tags: ['main'] },
        blog: { label: 'Blog', url: `${b}/old2` },
        shop: { label: 'Shop', url: `${c}/old3` },
        promo: { label: 'Promo', url: `${b}/for-now` },
        gone: { label: 'Old page', url: `${c}/gone` },
        mail: { label: 'Write to us', url: 'mailto:team@example.org' },
      },
    }),
  });
});

test.afterAll(async () => {
  await server?.dispose();
  await Promise.all(
    sites.map((site) => new Promise((done) => site.server.close(done))),
  );
});

test('badges, Check now, the Moved facet and Use the new URL (one revision each) at 1280 px', async ({
  page,
}, testInfo) => {
  test.slow();
  await page.setViewportSize({ width: 1280, height: 900 });
  await openApp(page, server.baseURL);
  await signIn(page, WRITE);
  await openConfig(page, NAME);

  await page.getByTestId('check-now').click();
  await expect(page.getByTestId('health-note')).toContainText('Checking');
  await expect(page.getByTestId('health-note')).toHaveText(
    'Every link was checked.',
    {
      timeout: 60_000,
    },
  );
  await expect(badge(page, 'home')).toHaveAttribute('data-state', 'ok');
  await expect(badge(page, 'promo')).toHaveAttribute('data-state', 'ok');
  await expect(badge(page, 'mail')).toHaveAttribute('data-state', 'unchecked');
  for (const id of ['docs', 'blog', 'shop'])
    await expect(badge(page, id)).toHaveAttribute('data-state', 'redirected');
  // One 404 is not yet "broken": it waits for a second failure a while later.
  await expect(badge(page, 'gone')).toHaveAttribute('data-state', 'unchecked');
  await expect(badge(page, 'gone')).toHaveAttribute('data-failing', '');
  await badge(page, 'gone').locator('summary').click();
  await expect(
    badge(page, 'gone').getByTestId('link-health-details'),
  ).toContainText('HTTP 404');
  await expect(
    badge(page, 'gone').getByTestId('link-health-details'),
  ).toContainText('not yet confirmed');
  await badge(page, 'docs').locator('summary').click();
  await expect(badge(page, 'docs')).toContainText(
    `Moved for good to ${sites[0]?.origin}/new`,
  );
  await expect(facet(page, 'moved')).toHaveText('Moved (3)');
  await expect(facet(page, 'broken')).toHaveText('Broken (0)');
  await screenshot(page, testInfo, 'link-health-1280');
  await expectAccessible(page, testInfo, 'link-health-1280');

  // The Moved facet narrows the list to the moved links.
  await facet(page, 'moved').click();
  await expect(page.getByTestId('link-row')).toHaveCount(3);
  await facet(page, 'moved').click();
  await expect(page.getByTestId('link-row')).toHaveCount(7);

  // One link: its new URL (keeping its #fragment), saved as one revision.
  const before = await revisions();
  await linkRow(page, 'docs').getByTestId('use-new-url').click();
  await expect(linkRow(page, 'docs').locator('.cell-url a')).toHaveText(
    `${sites[0]?.origin}/new#install`,
  );
  await expect
    .poll(() => storedUrl('docs'))
    .toBe(`${sites[0]?.origin}/new#install`);
  expect(await revisions()).toBe(before + 1);
  await expect(facet(page, 'moved')).toHaveText('Moved (2)');

  // Every moved link at once: one more revision, not one per link.
  await page.getByTestId('use-new-urls').click();
  await expect.poll(() => storedUrl('shop')).toBe(`${sites[2]?.origin}/new3`);
  expect(await storedUrl('blog')).toBe(`${sites[1]?.origin}/new2`);
  expect(await revisions()).toBe(before + 2);
  await expect(facet(page, 'moved')).toHaveText('Moved (0)');
  await expect(page.getByTestId('use-new-urls')).toHaveCount(0);
});

test('a second failure past LINK_CHECK_CONFIRM: Broken (1) and its facet, at 390 px', async ({
  page,
}, testInfo) => {
  test.slow();
  const first = (await health()).links.find((link) => link.id === 'gone');
  expect(first?.failingSince).not.toBeNull();
  // The confirm delay is 1 minute from the first failure: let it pass on the server's clock.
  await server.moveClock();

  await page.setViewportSize({ width: 390, height: 844 });
  await openApp(page, server.baseURL);
  await signIn(page, WRITE);
  await openConfig(page, NAME);
  await page.getByTestId('check-now').click();
  await expect(badge(page, 'gone')).toHaveAttribute('data-state', 'broken', {
    timeout: 60_000,
  });
  await expect(badge(page, 'gone').locator('summary')).toContainText('Broken');
  await expect(facet(page, 'broken')).toHaveText('Broken (1)');
  await facet(page, 'broken').click();
  await expect(page.getByTestId('link-row')).toHaveCount(1);
  await badge(page, 'gone').locator('summary').click();
  await expect(
    badge(page, 'gone').getByTestId('link-health-details'),
  ).toContainText('HTTP 404');
  await screenshot(page, testInfo, 'link-health-390');
  await expectAccessible(page, testInfo, 'link-health-390');
});

test('a key that may only read sees the badges, but Check now is off', async ({
  page,
}) => {
  await openApp(page, server.baseURL);
  await signIn(page, READ);
  await openConfig(page, NAME);
  await expect(badge(page, 'home')).toHaveAttribute('data-state', 'ok');
  await expect(page.getByTestId('check-now')).toBeDisabled();
});
