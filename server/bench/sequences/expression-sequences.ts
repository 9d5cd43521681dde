/**
 * The expression scenarios' distinct requests (see request-sequences.ts): `/query` on one and on three
 * stored configs, `/cherry-pick`, and the memory soak's inline configs.
 */
import { configName, generateConfig } from '../dataset.js';
import { mulberry32, randomInt } from '../prng.js';
import type { Random } from '../prng.js';
import { countedTemplate, post } from './request-sequences.js';
import type {
  BenchRequest,
  CountedTemplate,
  RequestSequence,
  SequenceScope,
} from './request-sequences.js';
import { TAGS } from '../vocabulary.js';

/** A tag drawn with a bias to the common ones (so most expressions select something). */
const someTag = (rnd: Random): string =>
  TAGS[Math.floor(TAGS.length * rnd() ** 2)] ?? 'nyc';

/**
 * Expression shapes over the dataset's tags, link ids, macros (`@favorites`, `@picks`, `@recent`), search
 * patterns (`/p0/`) and refiners. None reaches the clock or chance, so every server must give the same
 * answer to the same request.
 */
const EXPRESSION_SHAPES: readonly ((rnd: Random, links: number) => string)[] = [
  (r, n) => `.${someTag(r)} + .${someTag(r)} | l${randomInt(r, 0, n - 1)}`,
  (r) => `.${someTag(r)} | .${someTag(r)} *limit:${randomInt(r, 5, 40)}*`,
  (r) => `@favorites - .${someTag(r)}`,
  (r, n) =>
    `(.${someTag(r)} | .${someTag(r)}) + .${someTag(r)}, l${randomInt(r, 0, n - 1)}`,
  (r) =>
    `.${someTag(r)} - .${someTag(r)} *sort:label* *limit:${randomInt(r, 10, 30)}*`,
  (r) => `@picks, .${someTag(r)} *skip:${randomInt(r, 1, 5)}*`,
  (r) => `/p0/ | .${someTag(r)}`,
  (r) =>
    `.${someTag(r)} *sort:createdAt* *reverse* *limit:${randomInt(r, 5, 20)}*`,
  (r) => `@recent | .${someTag(r)} + .${someTag(r)}`,
  (r, n) => {
    const ids = Array.from(
      { length: randomInt(r, 2, 6) },
      () => `l${randomInt(r, 0, n - 1)}`,
    );
    return `${ids.join(', ')}, .${someTag(r)} *unique*`;
  },
];

/** `count` distinct expressions for a dataset with `links` links per config. */
export function expressions(
  count: number,
  options: { links: number; seed: number },
): string[] {
  const rnd = mulberry32(options.seed);
  const out = new Set<string>();
  for (let i = 0; out.size < count && i < count * 50; i++) {
    const shape = EXPRESSION_SHAPES[i % EXPRESSION_SHAPES.length];
    if (shape !== undefined) out.add(shape(rnd, options.links));
  }
  return [...out];
}

/** How many distinct requests the expression scenarios cycle through. */
const EXPRESSION_REQUESTS = 4000;

/**
 * Request `i` of a sequence that walks `count` expressions again and again: the expression's index and the
 * pass. Each pass shifts the configs the expressions are asked of by one, so the (expression, config)
 * pairs do not repeat for as many passes as there are configs.
 */
const pass = (i: number, count: number) => ({
  e: i % count,
  p: Math.floor(i / count),
});

/**
 * `POST /query` on one stored config: distinct expressions, the configs taken in turn, shifted by one
 * config per pass over the expressions (expressions × configs requests, none repeated).
 */
export function queryOneSequence(scope: SequenceScope): RequestSequence {
  const list = expressions(EXPRESSION_REQUESTS, {
    links: scope.links,
    seed: 404,
  });
  return {
    size: list.length * scope.configs,
    at: (i) => {
      const { e, p } = pass(i, list.length);
      return post('/query', {
        expression: list[e],
        configName: configName((e + p) % scope.configs),
      });
    },
  };
}

/**
 * Three distinct names out of `configs` for request `i`: consecutive requests get different sets, and
 * the order within a set varies (the merge depends on it).
 */
export function threeConfigs(
  i: number,
  configs: number,
  name: (index: number) => string = configName,
): string[] {
  if (configs < 3) return [0, 1, 2].map((k) => name(k % configs));
  const a = i % configs;
  const step = 1 + (Math.floor(i / configs) % (configs - 1));
  const b = (a + step) % configs;
  let c = (b + step) % configs;
  if (c === a) c = (c + 1) % configs;
  if (c === b) c = (c + 1) % configs;
  return [a, b, c].map(name);
}

/**
 * `POST /query` merging three stored configs: distinct expressions over changing sets of configs, shifted
 * by one set per pass over the expressions (expressions × sets requests, none repeated).
 */
export function queryThreeSequence(scope: SequenceScope): RequestSequence {
  const list = expressions(EXPRESSION_REQUESTS, {
    links: scope.links,
    seed: 505,
  });
  const sets = Math.max(1, scope.configs * (scope.configs - 1));
  return {
    size: list.length * sets,
    at: (i) => {
      const { e, p } = pass(i, list.length);
      return post('/query', {
        expression: list[e],
        configs: threeConfigs(e + p, scope.configs),
      });
    },
  };
}

/** The partly overlapping configs: how many, their links, and how far each one's ids are shifted. */
const OVERLAP = { configs: 8, links: 500, shift: 200 } as const;

/** The name of partly overlapping config number `index`. */
const overlapName = (index: number): string =>
  `overlap-${String(index).padStart(2, '0')}`;

/**
 * `POST /query` over three of 8 partly overlapping configs (created by `setup`): config `k` holds the
 * ids `l(200k)` to `l(200k + 499)`, so neighbours share 300 ids, the next but one 100, with the same macro
 * and pattern names and their own tags, labels and macro texts. Distinct expressions over changing ordered
 * triples, as `queryThreeSequence`; no merge's last part holds every id of the others.
 */
export function queryOverlapSequence(): {
  sequence: RequestSequence;
  setup: BenchRequest[];
} {
  const { configs, links, shift } = OVERLAP;
  const setup = Array.from({ length: configs }, (_, k): BenchRequest => {
    const config = generateConfig({ links, seed: 8080 + k });
    const allLinks: Record<string, unknown> = {};
    for (const [i, link] of Object.values(config.allLinks).entries()) {
      allLinks[`l${i + k * shift}`] = link;
    }
    return {
      method: 'PUT',
      path: `/configs/${overlapName(k)}`,
      body: JSON.stringify({ ...config, allLinks }),
    };
  });
  const list = expressions(EXPRESSION_REQUESTS, {
    links: links + (configs - 1) * shift,
    seed: 808,
  });
  const sets = configs * (configs - 1);
  return {
    setup,
    sequence: {
      size: list.length * sets,
      at: (i) => {
        const { e, p } = pass(i, list.length);
        return post('/query', {
          expression: list[e],
          configs: threeConfigs(e + p, configs, overlapName),
        });
      },
    },
  };
}

/**
 * `POST /cherry-pick` from stored configs: distinct expressions, the sources taken in turn, shifted by one
 * config per pass over the expressions (expressions × configs requests, none repeated).
 */
export function cherryPickSequence(scope: SequenceScope): RequestSequence {
  const list = expressions(EXPRESSION_REQUESTS, {
    links: scope.links,
    seed: 606,
  });
  return {
    size: list.length * scope.configs,
    at: (i) => {
      const { e, p } = pass(i, list.length);
      return post('/cherry-pick', {
        source: configName((e * 7 + p) % scope.configs),
        expression: list[e],
      });
    },
  };
}
/**
 * `POST /query` with an inline config of about `bytes` (the memory soak): distinct content every time
 * (a counter in a label, four base configs taken in turn), every other request merged after a stored
 * config, with a changing expression.
 */
export function inlineQuerySequence(options: {
  bytes: number;
  links: number;
  stored: number;
}): RequestSequence {
  const perLink = 240;
  const linkCount = Math.max(1, Math.round(options.bytes / perLink));
  const templates = [1, 2, 3, 4].map((k) =>
    countedTemplate(
      JSON.stringify(generateConfig({ links: linkCount, seed: 9000 + k })),
    ),
  );
  const exprs = expressions(500, {
    links: Math.min(linkCount, options.links),
    seed: 707,
  });
  return {
    size: 1_000_000_000,
    at: (i) => {
      const template = templates[i % templates.length] as CountedTemplate;
      const inline = `${template.prefix}${i}${template.suffix}`;
      const expression = JSON.stringify(exprs[i % exprs.length] ?? '.nyc');
      const stored = JSON.stringify(configName(i % options.stored));
      const configs = i % 2 === 0 ? `[${inline}]` : `[${stored},${inline}]`;
      return {
        method: 'POST',
        path: '/query',
        body: `{"expression":${expression},"configs":${configs}}`,
      };
    },
  };
}
