/**
 * CPU time per request in-process: a built server tree's app (`createApp` over the memory repository)
 * answers a scenario's own distinct requests through `app.request`, with no sockets and no load
 * generator sharing the cores. Steadier than the HTTP benchmark on a busy machine when valgrind is too
 * slow to start (`instructions.ts`), and able to compare two builds: pass the root of each checkout
 * (its `server/dist` and `shared/dist` built). Counts this process's user + system time over each
 * window, after a warm-up window of the same size.
 *
 * Usage: node --import tsx server/bench/in-process.ts ROOT [scenario,…] [requests per window] [sqlite]
 *   e.g. node --import tsx server/bench/in-process.ts /tmp/lc-main query-three,query-one 1000
 * With `sqlite`, the app runs over the SQLite repository on a new file in a temporary folder (writes then
 * include the database's work; the time blocked in fsync is not CPU time and is not counted).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { loadBuiltTree, putDataset, sendTo } from './built-tree.js';
import { generateDataset } from './dataset.js';
import { buildScenarios } from './scenarios.js';

const SCOPE = { configs: 50, links: 500 };
const WINDOWS = 3;
const [root = '.', only = 'query-three', perWindow = '1000', store] =
  process.argv.slice(2);
const count = Number(perWindow);

const built = await loadBuiltTree(root);
const folder =
  store === 'sqlite'
    ? mkdtempSync(join(tmpdir(), 'linkconfig-in-process-'))
    : undefined;
const repository =
  folder === undefined
    ? built.createMemoryConfigRepository()
    : (
        (await import(
          `${built.dist}/storage/sqlite/sqlite-config-repository.js`
        )) as {
          createSqliteConfigRepository: (options: { path: string }) => unknown;
        }
      ).createSqliteConfigRepository({ path: join(folder, 'bench.db') });
const services = built.createServices({ repository, now: () => new Date() });
const app = built.createApp({ services, logger: pino({ level: 'silent' }) });
await putDataset(app, generateDataset(SCOPE));

const scenarios = buildScenarios(SCOPE);
for (const id of only.split(',')) {
  const scenario = scenarios.find((s) => s.id === id);
  if (scenario === undefined) throw new Error(`no scenario ${id}`);
  const run = async (from: number): Promise<void> => {
    for (let i = from; i < from + count; i++) {
      const response = await sendTo(app, scenario.sequence.at(i));
      await response.arrayBuffer();
      if (response.status >= 300) throw new Error(`${id}: ${response.status}`);
    }
  };
  for (const request of scenario.setup ?? []) {
    const response = await sendTo(app, request);
    await response.arrayBuffer();
  }
  await run(0);
  const windows: string[] = [];
  for (let w = 1; w <= WINDOWS; w++) {
    const start = process.cpuUsage();
    await run(count * w);
    const used = process.cpuUsage(start);
    windows.push(((used.user + used.system) / count).toFixed(0));
  }
  console.log(
    `${id}: CPU µs per request, ${WINDOWS} windows of ${count}: ${windows.join(' / ')}`,
  );
}
if (folder !== undefined) rmSync(folder, { recursive: true, force: true });
