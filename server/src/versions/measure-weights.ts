/**
 * Measures what each part of a cached config version keeps alive, for `weights.test.ts` (run as a child
 * process with `--expose-gc`, so garbage collection can be forced between steps).
 *
 * `node --expose-gc --import tsx server/src/versions/measure-weights.ts <shape>` prints one JSON object:
 * the shape's totals (JSON characters, character width, links) and the heap growth per part, in bytes.
 */
import { LINK_FIELD_ORDER, resolve } from '@linkconfig/shared';
import { ConfigVersion } from './config-version.js';
import { charWidth } from '../cache/weights.js';

/** The config shapes the factors are checked on. */
export const SHAPES = [
  'typical',
  'tiny-links',
  'non-latin',
  'long-texts',
  'blocked-urls',
] as const;
export type Shape = (typeof SHAPES)[number];

const WORDS =
  'alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo lima mike'.split(
    ' ',
  );
const CJK = '東京 大阪 名古屋 札幌 福岡 神戸 京都 横浜 仙台 広島'.split(' ');

function words(n: number, seed: number, vocabulary: readonly string[]): string {
  const out: string[] = [];
  for (let i = 0; i < n; i++)
    out.push(vocabulary[(seed * 7 + i * 13) % vocabulary.length] ?? '');
  return out.join(' ');
}

/** A config of the given shape, as JSON text. */
export function configText(shape: Shape, seed: number): string {
  const allLinks: Record<string, unknown> = {};
  const count =
    shape === 'tiny-links' ? 2000 : shape === 'long-texts' ? 40 : 500;
  const vocabulary = shape === 'non-latin' ? CJK : WORDS;
  for (let i = 0; i < count; i++) {
    const id = `l${seed}_${i}`;
    if (shape === 'tiny-links') {
      allLinks[id] = { url: `https://x.example/${seed}/${i}` };
      continue;
    }
    const descriptionWords = shape === 'long-texts' ? 400 : 12;
    allLinks[id] = {
      url:
        shape === 'blocked-urls'
          ? `javascript:alert(${i})`
          : `https://h${i % 17}.example/${words(2, i + seed, WORDS).replace(' ', '/')}-${i}`,
      label: words(4, i + seed, vocabulary),
      description: words(descriptionWords, i * 3 + seed, vocabulary),
      tags: [`t${i % 23}`, `t${(i * 7) % 31}`],
      createdAt: new Date(Date.UTC(2025, 0, 1) + i * 3_600_000).toISOString(),
      meta: { homeUrl: `https://m.example/${i}`, rank: i },
    };
  }
  return JSON.stringify({
    allLinks,
    macros: { m: { linkItems: '.t1 | .t2' } },
    searchPatterns: { p: { pattern: 'alpha', options: { limit: 10 } } },
  });
}

/** Every field the engine keeps per-link tables for (sort ranks, unique values). */
const ENGINE_FIELDS = ['id', ...LINK_FIELD_ORDER];

const gc = (globalThis as { gc?: () => void }).gc;

function heap(): number {
  if (gc === undefined) throw new Error('run with --expose-gc');
  gc();
  gc();
  const usage = process.memoryUsage();
  return usage.heapUsed + usage.arrayBuffers;
}

/** Builds 20 versions of `shape` and measures each part's heap growth over all of them. */
export function measure(shape: Shape): Record<string, number> {
  const texts = Array.from({ length: 20 }, (_, i) => configText(shape, i));
  const chars = texts.reduce((sum, t) => sum + t.length, 0);
  let before = heap();
  const views = texts.map(
    (json, i) =>
      new ConfigVersion({
        name: `c${i}`,
        json,
        createdAt: '2026-01-01T00:00:00.000Z',
        updatedAt: '2026-01-01T00:00:00.000Z',
        version: i + 1,
      }),
  );
  // The texts stay alive through `texts`; a view's own copy is the same string, so measure from here.
  before = heap();
  const out: Record<string, number> = {
    chars,
    width: Math.max(...texts.map(charWidth)),
    links: 0,
  };
  // One throwaway version of the same shape goes through every step first, so what is built once per
  // process (compiled code, object shapes) is not counted as the memory of the versions measured.
  const warmUp = new ConfigVersion({
    name: 'warm-up',
    json: configText(shape, 99),
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
    version: 999,
  });
  const step = (part: string, build: (view: ConfigVersion) => unknown) => {
    build(warmUp);
    before = heap();
    for (const view of views) build(view);
    const after = heap();
    out[part] = after - before;
    before = after;
  };
  step('stored', (v) => v.stored);
  out['links'] = views.reduce((sum, v) => sum + v.shape.links, 0);
  step('entry', (v) => v.entry);
  out['entryCopies'] = views.filter((v) => v.entry.config !== v.stored).length;
  step('prepared', (v) => {
    // The prepared form plus the most working data the engine can build on it: every per-field
    // ranking and value table (sort/unique on every field, over lists long enough to build them),
    // timestamps, locations and search-pattern results.
    const prepared = v.prepared;
    // 400 ids (800 tokens, under the 1024 limit), sorted often enough that the engine builds its
    // catalog-wide tables instead of sorting directly.
    const list = prepared.ids.slice(0, 400).join(' | ');
    const rounds = Math.ceil(prepared.ids.length / 400) + 1;
    for (const field of ENGINE_FIELDS) {
      for (let i = 0; i < rounds; i++) {
        resolve(prepared, `(${list}) *sort:${field}* *unique:${field}*`);
      }
    }
    resolve(prepared, ':time:30d: | :location: | /p/');
    return prepared;
  });
  step('searchIndex', (v) => v.searchIndex);
  if (views.length === 0) throw new Error('unreachable');
  return out;
}

if (process.argv[1]?.endsWith('measure-weights.ts')) {
  const shape = process.argv[2] as Shape;
  process.stdout.write(JSON.stringify(measure(shape)));
}
