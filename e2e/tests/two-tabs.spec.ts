/**
 * H9 (docs/guarantees.md): with two tabs holding queued changes, one tab drains at a time (Web Locks),
 * every change reaches the server, no tab sends an entry twice except on retry, and closing the
 * draining tab lets the other finish.
 */
import type { Page, Route } from '@playwright/test';
import {
  addLinkAndSave,
  createConfig,
  expectNothingPending,
  openApp,
  serverLinks,
} from '../support/app.js';
import { expect, test } from '../support/fixtures.js';

interface Sent {
  tab: 'A' | 'B';
  name: string;
}

test('H9: one drainer at a time; closing it lets the other tab finish', async ({
  context,
  baseURL,
  request,
}) => {
  const names = { A: 'h9-from-a', B: 'h9-from-b' } as const;
  // Phase "down": the API is unreachable. Phase "up": PUTs are logged; the first tab to send one is
  // the drainer, and its PUTs hang so it keeps the lock.
  let phase: 'down' | 'up' = 'down';
  const sent: Sent[] = [];
  const held: Route[] = [];
  let drainer: 'A' | 'B' | null = null;

  const open = async (tab: 'A' | 'B'): Promise<Page> => {
    const page = await context.newPage();
    await openApp(page, baseURL!);
    await page.route('**/configs**', async (route) => {
      const method = route.request().method();
      if (phase === 'down') return route.abort('connectionrefused');
      if (method !== 'PUT') return route.continue();
      const name = decodeURIComponent(
        new URL(route.request().url()).pathname.split('/').pop() ?? '',
      );
      sent.push({ tab, name });
      drainer ??= tab;
      if (tab === drainer) held.push(route);
      else await route.continue();
    });
    return page;
  };
  const pages = { A: await open('A'), B: await open('B') };

  for (const tab of ['A', 'B'] as const) {
    await createConfig(pages[tab], names[tab]);
    await addLinkAndSave(pages[tab], {
      id: tab.toLowerCase(),
      url: `https://example.com/${tab}`,
    });
  }

  phase = 'up';
  await expect.poll(() => held.length, { timeout: 20_000 }).toBeGreaterThan(0);
  const first = drainer as 'A' | 'B' | null;
  if (first === null) throw new Error('no tab started draining');
  const other = first === 'A' ? 'B' : 'A';

  // One holder of the sync lock for the whole origin, while the drainer's PUT hangs.
  const locks = await pages[other].evaluate(async () => {
    const state = await navigator.locks.query();
    return (state.held ?? []).filter((l) => l.name === 'linkconfig-sync')
      .length;
  });
  expect(locks).toBe(1);
  expect(sent.filter((s) => s.tab === other)).toEqual([]);

  await pages[first].close();
  for (const tab of ['A', 'B'] as const)
    await expect
      .poll(
        () => serverLinks(request, { baseURL: baseURL!, name: names[tab] }),
        {
          timeout: 20_000,
        },
      )
      .toEqual({
        [tab.toLowerCase()]: { url: `https://example.com/${tab}` },
      });
  await expectNothingPending(pages[other]);

  // The surviving tab sent each entry once; the closed one never got an answer, so never re-sent.
  const byOther = sent.filter((s) => s.tab === other).map((s) => s.name);
  expect(byOther.sort()).toEqual([names.A, names.B].sort());
  const byFirst = sent.filter((s) => s.tab === first);
  expect(byFirst).toHaveLength(1);
});
