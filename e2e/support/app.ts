/** Helpers that drive the web page the way a person would, plus read-outs of its state. */
import type { APIRequestContext, Page, TestInfo } from '@playwright/test';
import { expect } from '@playwright/test';
import type { ConfigEntry, Link } from '@linkconfig/shared';

/** Opens the page at `baseURL` and waits until it has shown the config names. */
export async function openApp(page: Page, baseURL: string): Promise<void> {
  await page.goto(`${baseURL}/`);
  await expect(page.locator('body')).toHaveAttribute('data-ready', 'true');
}

/** Clicks the config `name` in the list and waits for the editor to show it. */
export async function openConfig(page: Page, name: string): Promise<void> {
  await page
    .getByTestId('config-list')
    .getByRole('button', { name, exact: true })
    .click();
  await expect(page.getByTestId('editor-heading')).toHaveText(
    `Config "${name}"`,
  );
}

/** Creates a config through the form and waits for it to be open. */
export async function createConfig(page: Page, name: string): Promise<void> {
  await page.getByLabel('New config name').fill(name);
  await page.getByRole('button', { name: 'Create config' }).click();
  await expect(page.getByTestId('editor-heading')).toHaveText(
    `Config "${name}"`,
  );
}

/** What the link form takes. */
export interface LinkInput {
  id: string;
  url: string;
  label?: string;
  tags?: string[];
}

/** Adds a link to the open config's draft through the form. */
export async function addLink(page: Page, link: LinkInput): Promise<void> {
  await page.getByLabel('Id', { exact: true }).fill(link.id);
  await page.getByLabel('Label', { exact: true }).fill(link.label ?? '');
  await page.getByLabel('URL', { exact: true }).fill(link.url);
  await page
    .getByLabel('Tags (comma separated)')
    .fill((link.tags ?? []).join(', '));
  await page.getByTestId('link-submit').click();
  await expect(linkRow(page, link.id)).toBeVisible();
}

/** The table row of link `id` in the editor. */
export function linkRow(page: Page, id: string) {
  return page.locator(`[data-testid="link-row"][data-link-id="${id}"]`);
}

/** Presses "Save config" and waits until the page says it is saved locally. */
export async function saveConfig(page: Page): Promise<void> {
  await page.getByTestId('save-config').click();
  await expect(page.getByTestId('draft-state')).toHaveText(
    /^Saved in this browser\./,
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

/** Presses "Delete config", confirms, and waits until the page says it is deleted. */
export async function deleteOpenConfig(page: Page): Promise<void> {
  const name = (await page.getByTestId('editor-heading').textContent())
    ?.replace(/^Config "/, '')
    .replace(/"$/, '');
  page.once('dialog', (dialog) => void dialog.accept());
  await page.getByTestId('delete-config').click();
  await expect(page.getByTestId('editor-hint')).toHaveText(
    `Config "${name}" was deleted.`,
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
    /No changes waiting/,
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
  await page.screenshot({ path, fullPage: true });
  await testInfo.attach(name, { path, contentType: 'image/png' });
}
