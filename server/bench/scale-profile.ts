/**
 * Where a search's cost goes at one `--scale` point, in-process: a built server tree's app over the memory
 * repository, loaded with the scale point's dataset (`--configs`, the first `--named` configs with
 * `--links` links, the others with `--tail-links`), answers a scenario's own distinct requests through
 * `app.request`. Per scenario it prints the CPU µs per request over each window and, per request, the
 * results, the configs in the catalog, those the summaries left to read (the others ruled out), those
 * visited (read from the version cache or from storage), those read from storage (cache misses), the
 * stored texts parsed and the index builds, then the summaries' bytes. `--cpu-prof DIR` writes a V8
 * profile of the measured windows only (read it with `cpu-profile-summary.ts`).
 *
 * Usage: node --import tsx server/bench/scale-profile.ts [--root ROOT] --configs 200 [--links 500]
 *   [--named 10] [--tail-links 50] [--scenarios search-none,search-tag] [--requests 300] [--warmup 300]
 *   [--windows 2] [--cpu-prof DIR]
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { pino } from 'pino';
import { loadBuiltTree, putDataset, sendTo } from './built-tree.js';
import { generateDataset } from './dataset.js';
import { buildScenarios } from './scenarios.js';

const { values } = parseArgs({
  options: {
    root: { type: 'string', default: '.' },
    configs: { type: 'string', default: '200' },
    links: { type: 'string', default: '500' },
    named: { type: 'string', default: '10' },
    'tail-links': { type: 'string' },
    scenarios: {
      type: 'string',
      default: 'search-q,search-none,search-tag,search-regex',
    },
    requests: { type: 'string', default: '300' },
    warmup: { type: 'string', default: '300' },
    windows: { type: 'string', default: '2' },
    'cpu-prof': { type: 'string' },
  },
});
const configs = Number(values.configs);
const links = Number(values.links);
const named = Number(values.named);
const tailLinks =
  values['tail-links'] === undefined ? undefined : Number(values['tail-links']);
const requests = Number(values.requests);
const warmup = Number(values.warmup);
const windows = Number(values.windows);

interface Counted {
  calls: number;
}
/** What this benchmark reads of the services (counters and cache statistics). */
interface ProfiledServices {
  configs: Record<string, (...args: unknown[]) => unknown>;
  caches: {
    summaries: Record<string, unknown> & {
      candidates: (q: unknown) => string[];
      stats: () => { entries: number; bytes: number };
    };
    versions: {
      stats: () => { entries: number; bytes: number; evictions: number };
    };
  };
}

const { dist, createApp, createServices, createMemoryConfigRepository } =
  await loadBuiltTree<ProfiledServices>(values.root);

const { ConfigVersion } = (await import(
  `${dist}/versions/config-version.js`
)) as { ConfigVersion: { prototype: Record<string, unknown> } };
/** Index builds: searches of a version whose search index is not built. */
let indexBuilds = 0;
const inSlices = ConfigVersion.prototype['searchIndexInSlices'] as (
  this: { builtSearchIndex: unknown },
  ...args: unknown[]
) => unknown;
ConfigVersion.prototype['searchIndexInSlices'] = function (
  this: { builtSearchIndex: unknown },
  ...args: unknown[]
): unknown {
  if (this.builtSearchIndex === undefined) indexBuilds++;
  return inSlices.apply(this, args);
};

/** Parses of a stored text read from storage (a version whose text is held, not made by a write). */
let parses = 0;
const storedGetter = Object.getOwnPropertyDescriptor(
  ConfigVersion.prototype,
  'stored',
)?.get;
Object.defineProperty(ConfigVersion.prototype, 'stored', {
  get(this: { heldText: unknown; madeByWrite: boolean }): unknown {
    if (this.heldText !== undefined && !this.madeByWrite) parses++;
    return storedGetter?.call(this);
  },
});

// The heap flags the server sets when it starts (`serve.ts`): without them V8 pretenures what a search reads.
const { tuneHeap } = (await import(`${dist}/heap.js`)) as {
  tuneHeap: () => void;
};
tuneHeap();

const services = createServices({
  repository: createMemoryConfigRepository(),
  now: () => new Date(),
});
const app = createApp({ services, logger: pino({ level: 'silent' }) });

/** Counts the calls of `target[method]`, keeping its behaviour. */
function count(target: Record<string, unknown>, method: string): Counted {
  const counted = { calls: 0 };
  const original = target[method] as (...args: unknown[]) => unknown;
  target[method] = (...args: unknown[]): unknown => {
    counted.calls++;
    return original.apply(target, args);
  };
  return counted;
}
const visited = count(services.configs, 'cachedAt');
const fromStorage = count(services.configs, 'readVersion');
const summaries = services.caches.summaries;
const candidatesOf = summaries.candidates.bind(summaries);
let summaryCandidates = 0;
let summaryQueries = 0;
summaries.candidates = (q: unknown): string[] => {
  const out = candidatesOf(q);
  summaryQueries++;
  summaryCandidates += out.length;
  return out;
};

const loadStart = Date.now();
const tail =
  tailLinks === undefined ? undefined : { from: named, links: tailLinks };
await putDataset(app, generateDataset({ configs, links, tail }));
console.log(
  `loaded ${configs} configs (${named} × ${links} links, the rest × ${tailLinks ?? links}) in ${Date.now() - loadStart} ms`,
);

const session = values['cpu-prof'] === undefined ? undefined : new Session();
if (session !== undefined) {
  session.connect();
  await session.post('Profiler.enable');
}

const scenarios = buildScenarios({ configs: named, links });
for (const id of values.scenarios.split(',')) {
  const scenario = scenarios.find((s) => s.id === id);
  if (scenario === undefined) throw new Error(`no scenario ${id}`);
  let searched = 0;
  let found = 0;
  const run = async (from: number, n: number): Promise<void> => {
    for (let i = from; i < from + n; i++) {
      const response = await sendTo(app, scenario.sequence.at(i));
      const text = await response.text();
      searched += Number(/"configsSearched":(\d+)/.exec(text)?.[1] ?? 0);
      found += text.split('"configName":').length - 1;
      if (response.status >= 300) throw new Error(`${id}: ${response.status}`);
    }
  };
  await run(0, warmup);
  if (session !== undefined) await session.post('Profiler.start');
  const cpu: string[] = [];
  const before = {
    visited: visited.calls,
    fromStorage: fromStorage.calls,
    summaryCandidates,
    summaryQueries,
    indexBuilds,
    parses,
    evictions: services.caches.versions.stats().evictions,
  };
  searched = 0;
  found = 0;
  for (let w = 0; w < windows; w++) {
    const start = process.cpuUsage();
    await run(warmup + w * requests, requests);
    const used = process.cpuUsage(start);
    cpu.push(((used.user + used.system) / requests).toFixed(0));
  }
  if (session !== undefined && values['cpu-prof'] !== undefined) {
    const { profile } = await session.post('Profiler.stop');
    mkdirSync(values['cpu-prof'], { recursive: true });
    writeFileSync(
      join(values['cpu-prof'], `${id}-${configs}.cpuprofile`),
      JSON.stringify(profile),
    );
  }
  const n = requests * windows;
  const per = (x: number): string => (x / n).toFixed(1);
  const queries = summaryQueries - before.summaryQueries;
  console.log(
    `${id} @${configs}: CPU µs/request ${cpu.join(' / ')}; per request: results ${per(found)}, configsSearched ${per(searched)}, ` +
      `summary asked ${per(queries)} (candidates ${per(summaryCandidates - before.summaryCandidates)}), ` +
      `visited ${per(visited.calls - before.visited)}, from storage ${per(fromStorage.calls - before.fromStorage)}, ` +
      `parsed ${per(parses - before.parses)}, index builds ${per(indexBuilds - before.indexBuilds)}, versions evicted ${per(services.caches.versions.stats().evictions - before.evictions)}; ` +
      `summaries kept ${summaries.stats().entries} (${(summaries.stats().bytes / 2 ** 10).toFixed(0)} KiB), versions cached ${services.caches.versions.stats().entries} ` +
      `(${(services.caches.versions.stats().bytes / 2 ** 20).toFixed(0)} MiB)`,
  );
}
