/** Helpers that drive the web page the way a person would, plus read-outs of its state. */
import type {
  APIRequestContext,
  Locator,
  Page,
  TestInfo,
} from '@playwright/test';
import { AxeBuilder } from '@axe-core/playwright';
import { expect } from '@playwright/test';
import type { ConfigEntry, Link, LinkConfig } from '@linkconfig/shared';

/** Opens the page at `baseURL` and waits until it has shown the config names. */
export async function openApp(page: Page, baseURL: string): Promise<void> {
  await page.goto(`${baseURL}/`);
  await expect(page.locator('body')).toHaveAttribute('data-ready', 'true');
}

/** The button of config `name` in the list. */
export function configButton(page: Page, name: string): Locator {
  return page
    .getByTestId('config-list')
    .getByRole('button', { name, exact: true });
}

/** The marker beside config `name` in the list (where it is kept), if it has one. */
export function configMarker(page: Page, name: string): Locator {
  return page
    .getByTestId('config-list')
    .locator(`[data-config-name="${name}"] [data-testid="config-marker"]`);
}

/** Clicks the config `name` in the list and waits for the editor to show it. */
export async function openConfig(page: Page, name: string): Promise<void> {
  await configButton(page, name).click();
  await expect(page.getByTestId('editor-heading')).toHaveText(name);
}

/** Creates a config through the form and waits for it to be open. */
export async function createConfig(page: Page, name: string): Promise<void> {
  await page.getByLabel('New config name').fill(name);
  await page.getByRole('button', { name: 'Create config' }).click();
  await expect(page.getByTestId('editor-heading')).toHaveText(name);
}

/** What the link form takes. */
export interface LinkInput {
  id: string;
  url: string;
  label?: string;
  tags?: string[];
}

/** Fills the link form (Id, Label, URL, Tags) without submitting it. */
export async function fillLinkForm(page: Page, link: LinkInput): Promise<void> {
  await page.getByLabel('Id', { exact: true }).fill(link.id);
  await page.getByLabel('Label', { exact: true }).fill(link.label ?? '');
  await page.getByLabel('URL', { exact: true }).fill(link.url);
  await page
    .getByLabel('Tags', { exact: true })
    .fill((link.tags ?? []).join(', '));
}

/** Adds a link to the open config's draft through the form. */
export async function addLink(page: Page, link: LinkInput): Promise<void> {
  await fillLinkForm(page, link);
  await page.getByTestId('link-submit').click();
  await expect(linkRow(page, link.id)).toBeVisible();
}

/** Changes fields of link `id` through the link form (not saved). */
export async function editLink(
  page: Page,
  id: string,
  fields: { label?: string; url?: string },
): Promise<void> {
  await linkRow(page, id)
    .getByRole('button', { name: `Edit link ${id}` })
    .click();
  if (fields.label !== undefined)
    await page.getByLabel('Label', { exact: true }).fill(fields.label);
  if (fields.url !== undefined)
    await page.getByLabel('URL', { exact: true }).fill(fields.url);
  await page.getByTestId('link-submit').click();
}

/** The table row of link `id` in the editor. */
export function linkRow(page: Page, id: string): Locator {
  return page.locator(`#editor [data-testid="link-row"][data-link-id="${id}"]`);
}

/** Presses "Save config" and waits until the page says it is saved locally. */
export async function saveConfig(page: Page): Promise<void> {
  await page.getByTestId('save-config').click();
  await expect(page.getByTestId('draft-state')).toHaveText(
    /Saved in this browser/,
  );
}

/** Adds a link and saves the config: the usual one-change edit. */
export async function addLinkAndSave(
  page: Page,
  link: LinkInput,
): Promise<void> {
  await addLink(page, link);
  await saveConfig(page);
}

/** The page's question dialog (replace, discard, delete). */
export function questionDialog(page: Page): Locator {
  return page.getByRole('dialog');
}

/** Presses "Delete config", confirms in the dialog, and waits until the page says it is deleted. */
export async function deleteOpenConfig(page: Page): Promise<void> {
  const name = await page
    .getByTestId('editor-heading')
    .getAttribute('data-config-name');
  await page.getByTestId('delete-config').click();
  await questionDialog(page)
    .getByRole('button', { name: 'Delete config' })
    .click();
  await expect(page.getByTestId('editor-hint')).toHaveText(
    `Config “${name}” was deleted.`,
  );
}

/** The number of changes the status line says are waiting. */
export async function pendingCount(page: Page): Promise<number> {
  return Number(
    await page.getByTestId('status-pending').getAttribute('data-pending'),
  );
}

/** Waits until the status line says nothing is waiting for the server. */
export async function expectNothingPending(page: Page, timeout = 20_000) {
  await expect(page.getByTestId('status-pending')).toHaveAttribute(
    'data-pending',
    '0',
    { timeout },
  );
  await expect(page.getByTestId('status-pending')).toHaveText(
    'All changes are on the server.',
  );
}

/** The outbox entries in the page's IndexedDB (names and operations), read directly. */
export async function outboxEntries(
  page: Page,
): Promise<{ name: string; op: string }[]> {
  return page.evaluate(
    () =>
      new Promise<{ name: string; op: string }[]>((done, fail) => {
        const open = indexedDB.open('linkconfig');
        open.onerror = () => fail(open.error);
        open.onsuccess = () => {
          const db = open.result;
          const request = db
            .transaction('outbox', 'readonly')
            .objectStore('outbox')
            .getAll();
          request.onerror = () => fail(request.error);
          request.onsuccess = () => {
            db.close();
            done(
              (request.result as { name: string; op: string }[]).map((e) => ({
                name: e.name,
                op: e.op,
              })),
            );
          };
        };
      }),
  );
}

/** `GET /configs/:name` on the server: the entry, or null on 404. */
export async function serverEntry(
  request: APIRequestContext,
  url: string,
): Promise<ConfigEntry | null> {
  const response = await request.get(url);
  if (response.status() === 404) return null;
  expect(response.status()).toBe(200);
  return (await response.json()) as ConfigEntry;
}

/** The links of `name` on the server (`null` when the server has no such config). */
export async function serverLinks(
  request: APIRequestContext,
  options: { baseURL: string; name: string },
): Promise<Record<string, Link> | null> {
  const entry = await serverEntry(
    request,
    `${options.baseURL}/configs/${encodeURIComponent(options.name)}`,
  );
  return entry?.config.allLinks ?? null;
}

/** Saves a screenshot of the page as an artifact of the test. */
export async function screenshot(
  page: Page,
  testInfo: TestInfo,
  name: string,
): Promise<void> {
  const path = testInfo.outputPath(`${name}.png`);
  // From the top: sticky parts (the editor bar) would otherwise land mid-page in a full-page image.
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path, fullPage: true });
  await testInfo.attach(name, { path, contentType: 'image/png' });
}

/** The status line's text when the server answers and accepts the page. */
export const CONNECTED = 'Connected to the server.';

/**
 * Scans the page with axe for WCAG 2.0/2.1 A and AA problems, keeps the report as an artifact, and
 * fails on any violation.
 */
export async function expectAccessible(
  page: Page,
  testInfo: TestInfo,
  name: string,
): Promise<void> {
  const results = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    .analyze();
  await testInfo.attach(`axe-${name}.json`, {
    body: JSON.stringify(results.violations, null, 2),
    contentType: 'application/json',
  });
  const found = results.violations.map(
    (violation) =>
      `${violation.id}: ${violation.help} at ${violation.nodes
        .map((node) => node.target.join(' '))
        .join(' | ')}`,
  );
  expect(found, `accessibility violations on "${name}"`).toEqual([]);
}

/** Asserts that the page does not scroll sideways. */
export async function expectNoHorizontalOverflow(page: Page): Promise<void> {
  const { scrollWidth, clientWidth } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    clientWidth: document.documentElement.clientWidth,
  }));
  expect(scrollWidth, 'page width beyond the viewport').toBeLessThanOrEqual(
    clientWidth,
  );
}

/**
 * Presses Tab (Shift+Tab with `backwards`) until `target` has the focus, as a keyboard user would;
 * fails after `limit` presses.
 */
export async function tabTo(
  page: Page,
  target: Locator,
  options: { backwards?: boolean; limit?: number } = {},
): Promise<void> {
  const key = options.backwards ? 'Shift+Tab' : 'Tab';
  for (let presses = 0; presses < (options.limit ?? 60); presses++) {
    if (await target.evaluate((element) => element === document.activeElement))
      return;
    await page.keyboard.press(key);
  }
  throw new Error(`Tab never reached ${target.toString()}`);
}

/**
 * `PUT /configs/:name` from Node's own `fetch`, as another client of the server would (not through the
 * page or its browser context); fails unless the server accepts it.
 */
export async function putOverRest(
  baseURL: string,
  name: string,
  config: LinkConfig,
): Promise<void> {
  const response = await fetch(
    `${baseURL}/configs/${encodeURIComponent(name)}`,
    {
      method: 'PUT',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(config),
    },
  );
  expect(response.status, `PUT ${name}`).toBeLessThan(300);
}

/** `DELETE /configs/:name` from Node's `fetch`, as another client would. */
export async function deleteOverRest(
  baseURL: string,
  name: string,
): Promise<void> {
  const response = await fetch(
    `${baseURL}/configs/${encodeURIComponent(name)}`,
    { method: 'DELETE' },
  );
  expect(response.status, `DELETE ${name}`).toBeLessThan(300);
}

/** Waits until the status line says live updates from the server are connected. */
export async function expectLive(page: Page): Promise<void> {
  await expect(page.getByTestId('status-live')).toHaveAttribute(
    'data-live',
    'connected',
  );
}
