import {
  CherryPickInputSchema,
  prepareConfig,
  QueryInputSchema,
  resolve,
  SearchInputSchema,
  validateLinkConfig,
} from '@linkconfig/shared';
import { describe, expect, it } from 'vitest';
import { generateDataset } from '../dataset.js';
import { sequenceCursor } from '../load.js';
import {
  countedTemplate,
  countRepeats,
  listSequence,
  mixSequences,
  putSequence,
} from './request-sequences.js';
import { caseVariants, noMatchWords } from './search-sequences.js';
import {
  expressions,
  inlineQuerySequence,
  threeConfigs,
} from './expression-sequences.js';
import type { BenchRequest, RequestSequence } from './request-sequences.js';
import { mulberry32 } from '../prng.js';
import { buildScenarios, PUT_BYTES, SCENARIO_IDS } from '../scenarios.js';
import { HOSTS, TAGS, WORDS } from '../vocabulary.js';

const scope = { configs: 50, links: 500 };
const scenarios = buildScenarios(scope);
const byId = (id: string) => {
  const found = scenarios.find((s) => s.id === id);
  if (found === undefined) throw new Error(`no scenario ${id}`);
  return found.sequence;
};
const all = (s: RequestSequence, max = 20_000): BenchRequest[] =>
  Array.from({ length: Math.min(s.size, max) }, (_, i) => s.at(i));
const key = (r: BenchRequest) => `${r.method} ${r.path} ${r.body ?? ''}`;
const query = (r: BenchRequest) =>
  Object.fromEntries(new URL(r.path, 'http://x').searchParams);

describe('the scenarios', () => {
  it('cover the scenarios of the issues, in order, the writes last', () => {
    expect(scenarios.map((s) => s.id)).toEqual([...SCENARIO_IDS]);
  });

  it.each(SCENARIO_IDS.filter((id) => id !== 'list'))(
    '%s cycles through distinct requests',
    (id) => {
      // PUT bodies are 120 KiB each: a few dozen make the point.
      const requests = all(byId(id), id === 'put' ? 40 : 5000);
      expect(requests.length).toBeGreaterThanOrEqual(
        id === 'get' || id === 'put' ? 40 : 600,
      );
      expect(new Set(requests.map(key)).size).toBe(requests.length);
    },
  );

  it.each([
    'search-q',
    'search-none',
    'search-tag',
    'search-regex',
    'query-one',
    'query-three',
    'cherry-pick',
  ])('%s sends no request twice in the first 120,000 (a long run)', (id) => {
    const sequence = byId(id);
    expect(sequence.size).toBeGreaterThanOrEqual(120_000);
    expect(countRepeats(sequence, 120_000)).toBe(0);
  });

  it('gives the same request for the same index, every time', () => {
    for (const s of scenarios) {
      expect(key(s.sequence.at(7))).toBe(key(s.sequence.at(7)));
      // Lists come round again; endless sequences (PUT) never do.
      if (s.sequence.size < 1_000_000) {
        expect(key(s.sequence.at(s.sequence.size + 7))).toBe(
          key(s.sequence.at(7)),
        );
      }
    }
    expect(key(buildScenarios(scope)[4]!.sequence.at(99))).toBe(
      key(byId('search-tag').at(99)),
    );
  });
});

describe('search requests', () => {
  it('ask for every vocabulary word, in mixed case, with valid parameters', () => {
    // The first variant of every word comes first: 2,000 requests cover them all.
    const requests = all(byId('search-q'), 2000);
    const words = new Set<string>();
    let mixed = 0;
    for (const r of requests) {
      const parsed = SearchInputSchema.parse(query(r));
      expect(parsed.fields).toHaveLength(5);
      words.add(parsed.q?.toLowerCase() ?? '');
      if (parsed.q !== parsed.q?.toLowerCase()) mixed++;
    }
    expect([...words].sort()).toEqual([...WORDS].sort());
    expect(mixed).toBeGreaterThan(requests.length / 2);
  });

  it('never ask for the same word twice in a row', () => {
    const requests = all(byId('search-q'), 2000);
    const word = (r: BenchRequest) => query(r)['q']?.toLowerCase();
    for (let i = 1; i < requests.length; i++) {
      expect(word(requests[i]!)).not.toBe(word(requests[i - 1]!));
    }
  });

  it('use no-match words that occur nowhere in the dataset', () => {
    const words = noMatchWords(3000).map((w) => w.toLowerCase());
    expect(new Set(words).size).toBe(3000);
    // Every word starts with "qz", and no text the dataset is made of contains "qz".
    expect(words.every((w) => w.startsWith('qz'))).toBe(true);
    const texts = [...WORDS, ...TAGS, ...HOSTS];
    for (const { json } of generateDataset({ configs: 3, links: 500 })) {
      texts.push(json.toLowerCase());
    }
    expect(texts.some((t) => t.includes('qz'))).toBe(false);
    for (const r of all(byId('search-none'), 200)) {
      expect(SearchInputSchema.parse(query(r)).q?.toLowerCase()).toMatch(/^qz/);
    }
  });

  it('ask for every tag exactly, with valid limits', () => {
    const requests = all(byId('search-tag'));
    const tags = new Set(
      requests.map((r) => SearchInputSchema.parse(query(r)).tag),
    );
    expect([...tags].sort()).toEqual([...TAGS].sort());
  });

  it('use regexes that compile and look at label and description only', () => {
    for (const r of all(byId('search-regex'))) {
      const parsed = SearchInputSchema.parse(query(r));
      expect(parsed.fields).toEqual(['label', 'description']);
      expect(() => new RegExp(parsed.regex ?? '', 'i')).not.toThrow();
    }
  });
});

describe('expression requests', () => {
  const [first] = generateDataset({ configs: 1, links: 500 });
  const prepared = prepareConfig(first?.config);

  it('are distinct and mostly select links of a dataset config', () => {
    const list = expressions(1000, { links: 500, seed: 1 });
    expect(new Set(list).size).toBe(1000);
    const selecting = list.filter(
      (e) => resolve(prepared, e, { now: 0 }).length > 0,
    );
    expect(selecting.length).toBeGreaterThan(900);
    expect(list.some((e) => /time|shuffle/.test(e))).toBe(false);
  });

  it('are valid /query and /cherry-pick bodies naming configs of the dataset', () => {
    const names = new Set(
      Array.from(
        { length: 50 },
        (_, i) => `bench-${String(i).padStart(3, '0')}`,
      ),
    );
    for (const r of all(byId('query-one'))) {
      const input = QueryInputSchema.parse(JSON.parse(r.body ?? ''));
      expect(names.has(input.configName ?? '')).toBe(true);
    }
    for (const r of all(byId('query-three'))) {
      const input = QueryInputSchema.parse(JSON.parse(r.body ?? ''));
      expect(new Set(input.configs).size).toBe(3);
      for (const n of input.configs ?? [])
        expect(names.has(String(n))).toBe(true);
    }
    for (const r of all(byId('cherry-pick'))) {
      const input = CherryPickInputSchema.parse(JSON.parse(r.body ?? ''));
      expect(names.has(String(input.source))).toBe(true);
    }
  });

  it('pick three distinct configs per request, even from a small dataset', () => {
    for (const configs of [3, 4, 10, 50]) {
      for (let i = 0; i < 500; i++) {
        expect(new Set(threeConfigs(i, configs)).size).toBe(3);
      }
    }
  });
});

describe('PUT requests', () => {
  it('carry distinct valid configs of at least 120 KiB, over several names', () => {
    const puts = all(putSequence(PUT_BYTES), 20);
    expect(new Set(puts.map((r) => r.body)).size).toBe(20);
    expect(new Set(puts.map((r) => r.path)).size).toBe(8);
    for (const r of puts.slice(0, 3)) {
      expect(r.method).toBe('PUT');
      expect(Buffer.byteLength(r.body ?? '')).toBeGreaterThanOrEqual(PUT_BYTES);
      expect(validateLinkConfig(JSON.parse(r.body ?? '')).ok).toBe(true);
    }
  });

  it('put the counter in a label, keeping the JSON valid', () => {
    const t = countedTemplate('{"allLinks":{"a":{"url":"u","label":"x"}}}');
    expect(JSON.parse(`${t.prefix}42${t.suffix}`)).toEqual({
      allLinks: { a: { url: 'u', label: 'Saved 42' } },
    });
  });
});

describe('the soak requests', () => {
  it('carry distinct inline configs of the asked size, half merged after a stored config', () => {
    const s = inlineQuerySequence({ bytes: 40_000, links: 500, stored: 50 });
    const bodies = all(s, 6).map((r) => r.body ?? '');
    expect(new Set(bodies).size).toBe(6);
    for (const [i, body] of bodies.entries()) {
      const bytes = Buffer.byteLength(body);
      expect(bytes).toBeGreaterThan(30_000);
      expect(bytes).toBeLessThan(55_000);
      const input = QueryInputSchema.parse(JSON.parse(body));
      expect(input.configs).toHaveLength(i % 2 === 0 ? 1 : 2);
      const inline = input.configs?.at(-1);
      expect(validateLinkConfig(inline).ok).toBe(true);
    }
  });

  it('mix the search kinds, one of each in turn', () => {
    const a: RequestSequence = {
      size: 3,
      at: (i) => ({ method: 'GET', path: `/a${i}` }),
    };
    const b: RequestSequence = {
      size: 1,
      at: () => ({ method: 'GET', path: '/b' }),
    };
    const mixed = mixSequences([a, b]);
    expect(all(mixed).map((r) => r.path)).toEqual(['/a0', '/b', '/a1', '/a2']);
  });
});

describe('caseVariants', () => {
  it('spells a word differently each time, never more ways than it has', () => {
    const v = caseVariants('coffee', 6, mulberry32(1));
    expect(v).toHaveLength(6);
    expect(new Set(v).size).toBe(6);
    expect(v.slice(0, 3)).toEqual(['coffee', 'Coffee', 'COFFEE']);
    expect(v.every((w) => w.toLowerCase() === 'coffee')).toBe(true);
    expect(caseVariants('an', 6, mulberry32(1))).toHaveLength(4);
  });
});

describe('sequenceCursor', () => {
  it('hands out the sequence in order across all connections, with JSON headers on bodies', () => {
    const s = {
      size: 3,
      at: (i: number): BenchRequest =>
        i === 1
          ? { method: 'POST', path: '/q', body: '{}' }
          : { method: 'GET', path: `/g${i}` },
    };
    const cursor = sequenceCursor(s, { 'accept-encoding': 'br' });
    const setup = cursor.spec.setupRequest!;
    const defaults = { method: 'GET', path: '/', headers: { host: 'x' } };
    const sent = Array.from({ length: 4 }, () => setup({ ...defaults }, {}));
    expect(sent.map((r) => r.path)).toEqual(['/g0', '/q', '/g2', '/g0']);
    expect(sent[1]).toMatchObject({
      method: 'POST',
      body: '{}',
      headers: {
        host: 'x',
        'content-type': 'application/json',
        'accept-encoding': 'br',
      },
    });
    expect(sent[0]?.body).toBeUndefined();
    expect(cursor.sent()).toBe(4);
  });
});

describe('countRepeats', () => {
  it('counts the requests that repeat an earlier one of the run', () => {
    const three = listSequence([
      { method: 'GET', path: '/a' },
      { method: 'GET', path: '/b' },
      { method: 'POST', path: '/a', body: 'x'.repeat(600) },
    ]);
    expect(countRepeats(three, 3)).toBe(0);
    expect(countRepeats(three, 10)).toBe(7);
    expect(countRepeats(putSequence(1024), 50)).toBe(0);
  });
});
