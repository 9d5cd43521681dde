/** Helpers of the bulk-edit and links-table specs: a config to select from, and what the server keeps. */
import type { APIRequestContext, Page, TestInfo } from '@playwright/test';
import type { Link, LinkConfig } from '@linkconfig/shared';
import { expect } from '@playwright/test';
import { expectNothingPending, serverLinks } from './app.js';

/** `count` links: every fifth "Alpha …" (tag `a`), the rest "Beta …" (tag `b`). */
export function mixedConfig(count: number): LinkConfig {
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

export async function revisionCount(
  request: APIRequestContext,
  baseURL: string,
  name: string,
): Promise<number> {
  const response = await request.get(`${baseURL}/configs/${name}/history`);
  expect(response.status()).toBe(200);
  return ((await response.json()) as { revisions: unknown[] }).revisions.length;
}

export async function stored(
  request: APIRequestContext,
  baseURL: string,
  name: string,
): Promise<Record<string, Link>> {
  const links = await serverLinks(request, { baseURL, name });
  expect(links, `config ${name} on the server`).not.toBeNull();
  return links!;
}

export function unique(testInfo: TestInfo, stem: string): string {
  return `${stem}-${testInfo.retry}-${Date.now().toString(36)}`;
}

/** Scrolls the bulk bar to the top of the screen, under the sticky editor bar (for a screenshot). */
export async function showFromBar(page: Page): Promise<void> {
  await page.getByTestId('bulk-bar').evaluate((bar) => {
    bar.scrollIntoView({ block: 'start' });
    window.scrollBy(0, -130);
  });
}

/** Waits for a bulk action to be done and on the server. */
export async function applied(
  page: Page,
  words: string | RegExp,
): Promise<void> {
  await expect(page.getByTestId('bulk-applied')).toContainText(words);
  await expectNothingPending(page);
}
