/**
 * The history benchmark's page and large-config parts (issue 29, item 2): what a page of history and one
 * revision or diff of a large config cost the event loop, through the services as the routes call them.
 *
 * - page: a 120 KB config (500 links) with 1,000 revisions written through the service, on SQLite: the
 *   time of `history?limit=1000` and the longest the event loop was held meanwhile
 *   (`perf_hooks.monitorEventLoopDelay`); then the same for 1,000 revisions written beside the service
 *   (no summaries kept, as in a database from before them): every page until the listing is whole, then
 *   the listing again;
 * - huge: a ~9 MB config (37,500 links) and a one-link edit of it: `diff`, `revisions/1` and the history
 *   page, each with its time and the longest event-loop gap.
 */
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { createServices } from '../src/services/services.js';
import type { ConfigRepository } from '../src/storage/config-repository.js';
import { createSqliteConfigRepository } from '../src/storage/sqlite/sqlite-config-repository.js';
import { generateConfig } from './dataset.js';

const fmt = (n: number, digits = 1) => n.toFixed(digits);

/** Runs `work`, with its wall time and the longest event-loop delay seen meanwhile (ms). */
async function measured<T>(
  work: () => Promise<T>,
): Promise<{ value: T; ms: number; gapMs: number }> {
  const loop = monitorEventLoopDelay({ resolution: 1 });
  loop.enable();
  // The monitor's timer measures from its previous turn: it must have turned before the work (a
  // `reset` would forget that turn, and work that never yields would go unseen).
  await new Promise((resolve) => setTimeout(resolve, 20));
  const started = performance.now();
  const value = await work();
  const ms = performance.now() - started;
  // Lets the timer that was held late fire, so its delay is recorded.
  await new Promise((resolve) => setTimeout(resolve, 5));
  loop.disable();
  return { value, ms, gapMs: loop.max / 1e6 };
}

const line = (what: string, m: { ms: number; gapMs: number }) =>
  `${what}: ${fmt(m.ms)} ms, longest event-loop gap ${fmt(m.gapMs)} ms`;

/** Edit `i` of `config`: link `l(i·37 mod n)` gets a new label. */
function editor(links: number, seed: number) {
  const base = generateConfig({ links, seed });
  return (i: number): string => {
    const link = base.allLinks[`l${(i * 37) % links}`];
    if (link !== undefined) link.label = `edited ${i}`;
    return JSON.stringify(base);
  };
}

/**
 * A 1,000-revision page of a 120 KB config, summaries kept and not, on SQLite in `dir` or on the
 * repository `open` makes (`database` names it in the output).
 */
export async function pageFigures(
  dir: string,
  other?: { database: string; open: () => Promise<ConfigRepository> },
): Promise<void> {
  const database = other?.database ?? 'SQLite';
  const repository =
    other === undefined
      ? createSqliteConfigRepository({ path: join(dir, 'page.db') })
      : await other.open();
  const services = createServices({ repository });
  const edit = editor(500, 18);
  for (let i = 0; i < 1000; i++) {
    await services.configs.put('menu', JSON.parse(edit(i)) as unknown);
  }
  const bytes = Buffer.byteLength(edit(0));
  const page = () => services.history.history('menu', { limit: 1000 });
  await page();
  const written = await measured(page);
  console.log(
    line(
      `${database} history?limit=1000 of a ${fmt(bytes / 1024)} KB config, 1,000 revisions written through the service (${written.value.revisions.length} listed)`,
      written,
    ),
  );
  // Written beside the service: no summary kept.
  for (let i = 0; i < 1000; i++) await repository.put('old', edit(i));
  let before: number | undefined;
  let pages = 0;
  let listed = 0;
  let slowest = { ms: 0, gapMs: 0 };
  do {
    const m = await measured(() =>
      services.history.history('old', { limit: 1000, before }),
    );
    pages++;
    listed += m.value.revisions.length;
    if (m.gapMs > slowest.gapMs) slowest = m;
    before = m.value.next ?? undefined;
  } while (before !== undefined);
  console.log(
    line(
      `  the same 1,000 revisions kept without summaries: ${pages} page(s) of limit=1000 to list all ${listed}; the slowest`,
      slowest,
    ),
  );
  const again = await measured(() =>
    services.history.history('old', { limit: 1000 }),
  );
  console.log(line('  then history?limit=1000 of them again', again));
  await repository.close();
}

/** One revision, a diff and a page of a ~9 MB config. */
export async function hugeFigures(dir: string): Promise<void> {
  const repository = createSqliteConfigRepository({
    path: join(dir, 'huge.db'),
  });
  const services = createServices({ repository });
  const edit = editor(37_500, 29);
  await services.configs.put('huge', JSON.parse(edit(0)) as unknown);
  await services.configs.put('huge', JSON.parse(edit(1)) as unknown);
  const mb = Buffer.byteLength(edit(1)) / 1024 / 1024;
  const name = `SQLite ${fmt(mb)} MB config (37,500 links)`;
  const diff = await measured(() =>
    services.history.diff('huge', { from: 1, to: 2 }),
  );
  console.log(line(`${name}: diff?from=1&to=2`, diff));
  const revision = await measured(() => services.history.revision('huge', 1));
  console.log(line(`${name}: revisions/1`, revision));
  const page = await measured(() =>
    services.history.history('huge', { limit: 50 }),
  );
  console.log(line(`${name}: history (default page)`, page));
  await repository.close();
}
