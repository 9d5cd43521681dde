/**
 * The benchmark dataset: `configs` link configs of `links` links each, generated from a seed so every run
 * (and every machine) loads the same bytes. Labels, descriptions and tags are drawn from a vocabulary with
 * Zipf-like frequencies; every config has 3 macros and 2 search patterns; every link has
 * `{ url, label, description, tags, createdAt }` under an id `l0`, `l1`, ….
 */
import type { Link, LinkConfig } from '@linkconfig/shared';
import { mulberry32, randomInt, ZipfSampler } from './prng.js';
import type { Random } from './prng.js';
import { HOSTS, TAGS, WORDS } from './vocabulary.js';

/** What to generate. */
export interface DatasetOptions {
  /** Number of configs. */
  configs: number;
  /** Links per config. */
  links: number;
  /** PRNG seed; the default gives the dataset the figures were measured with. */
  seed?: number;
  /** Configs from index `from` on have `links` links instead (the large `--scale` point). */
  tail?: { from: number; links: number };
}

/** One generated config with its name and its JSON text (what is sent as the PUT body). */
export interface GeneratedConfig {
  name: string;
  config: LinkConfig;
  json: string;
}

/** The default seed. */
export const DEFAULT_SEED = 20_260_601;
/** Timestamps are spread over the three years before this instant (fixed, so the data never changes). */
const EPOCH = Date.UTC(2026, 0, 1);
const THREE_YEARS_MS = 3 * 365 * 86_400_000;

/** How often each vocabulary word is drawn into labels and descriptions (the common-terms mix draws the same way). */
export const WORD_FREQUENCY = new ZipfSampler(WORDS);
/** How often each tag is drawn into links' tag lists. */
export const TAG_FREQUENCY = new ZipfSampler(TAGS);
const words = WORD_FREQUENCY;
const tags = TAG_FREQUENCY;
const hosts = new ZipfSampler(HOSTS, 1.3);

/** The name of config number `index`: `bench-000`, `bench-001`, … (sorted by code point in index order). */
export function configName(index: number): string {
  return `bench-${String(index).padStart(3, '0')}`;
}

function sentence(rnd: Random, min: number, max: number): string {
  const count = randomInt(rnd, min, max);
  const parts: string[] = [];
  for (let i = 0; i < count; i++) parts.push(words.sample(rnd));
  const text = parts.join(' ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function generateLink(rnd: Random, index: number): Link {
  const host = hosts.sample(rnd);
  const path = `${words.sample(rnd)}/${words.sample(rnd)}-${index}`;
  return {
    url: `https://${host}/${path}`,
    label: sentence(rnd, 2, 5),
    description: `${sentence(rnd, 7, 17)}.`,
    tags: tags.sampleDistinct(rnd, randomInt(rnd, 1, 4)),
    createdAt: new Date(
      EPOCH - Math.floor(rnd() * THREE_YEARS_MS),
    ).toISOString(),
  };
}

/**
 * One config: settings, 3 macros, 2 search patterns (one string, one object with options) and `links`
 * links. Patterns are plain alternations of vocabulary words, so they pass the engine's safety heuristic.
 */
export function generateConfig(options: {
  links: number;
  seed: number;
}): LinkConfig {
  const rnd = mulberry32(options.seed);
  const [tagA = 'nyc', tagB = 'sf', tagC = 'coffee'] = tags.sampleDistinct(
    rnd,
    3,
  );
  const [w1 = 'coffee', w2 = 'tea', w3 = 'park', w4 = 'bridge'] =
    words.sampleDistinct(rnd, 4);
  const allLinks: Record<string, Link> = {};
  for (let i = 0; i < options.links; i++) {
    allLinks[`l${i}`] = generateLink(rnd, i);
  }
  return {
    settings: { listType: 'ul', menuTimeout: 5000 },
    macros: {
      favorites: { linkItems: `.${tagA} | .${tagB}` },
      picks: { linkItems: 'l1, l2, l3, l10' },
      recent: { linkItems: `.${tagC} *sort:createdAt* *reverse* *limit:10*` },
    },
    searchPatterns: {
      p0: `${w1}|${w2}`,
      p1: {
        pattern: `${w3}|${w4}`,
        options: { fields: 'l', limit: 20, sort: 'alpha' },
      },
    },
    allLinks,
  };
}

/**
 * The whole dataset, in name order. Config `i` is generated from `seed + i`, so a config's content does not
 * depend on how many configs are generated: the 10-config dataset is a prefix of the 200-config one (and,
 * with a `tail` from 10 on, of the 10,000-config one).
 */
export function* generateDataset(
  options: DatasetOptions,
): Generator<GeneratedConfig> {
  const seed = options.seed ?? DEFAULT_SEED;
  const { tail } = options;
  for (let i = 0; i < options.configs; i++) {
    const links =
      tail !== undefined && i >= tail.from ? tail.links : options.links;
    const config = generateConfig({ links, seed: seed + i });
    yield { name: configName(i), config, json: JSON.stringify(config) };
  }
}

/**
 * A config whose JSON is at least `minBytes` long (links added until it is), for the PUT scenario.
 *
 * @example
 * putBody(120 * 1024).length >= 122_880; // true
 */
export function putBody(minBytes: number, seed = DEFAULT_SEED - 1): string {
  let links = Math.max(1, Math.ceil(minBytes / 240));
  for (;;) {
    const json = JSON.stringify(generateConfig({ links, seed }));
    if (Buffer.byteLength(json) >= minBytes) return json;
    links += Math.max(1, Math.ceil((minBytes - json.length) / 200));
  }
}
