import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { overlayConfigs } from './overlay.js';
import { mergePrepared } from './merge-prepared.js';
import { prepareConfig } from './prepare.js';
import type { PreparedConfig } from '../types.js';

/** Keys as stored JSON can have them: integer-like, hyphenated, blocked, ordinary. */
const key = fc.constantFrom(
  'a',
  'b',
  'n-1',
  '7',
  '10',
  '007',
  '__proto__',
  'constructor',
  'zz',
);
const link = fc.oneof(
  fc.record(
    {
      url: fc.constantFrom('https://h', 'javascript:x', ''),
      label: fc.constantFrom('one', 'two'),
      tags: fc.subarray(['x', 'y', 'a-b', 'constructor']),
      meta: fc.constant({ homeUrl: 'data:x', n: 1 }),
    },
    { requiredKeys: [] },
  ),
  fc.constantFrom(null, 'text', 3, [1]),
);
/** A section as JSON text would give it: own keys only, `__proto__` an ordinary key. */
const section = <T>(value: fc.Arbitrary<T>) =>
  fc.array(fc.tuple(key, value), { maxLength: 6 }).map((entries) => {
    const out: Record<string, unknown> = {};
    for (const [k, v] of entries) {
      Object.defineProperty(out, k, {
        value: v,
        writable: true,
        enumerable: true,
        configurable: true,
      });
    }
    return out;
  });
const config = fc.record(
  {
    allLinks: fc.oneof(section(link), fc.constantFrom(null, [], 'x')),
    macros: fc.oneof(
      section(
        fc.oneof(
          fc.record({ linkItems: fc.constantFrom('.x', '') }),
          fc.constant(1),
        ),
      ),
      fc.constant(null),
    ),
    searchPatterns: fc.oneof(
      section(
        fc.oneof(
          fc.constantFrom('a', '(x+)+', '(?=a)b', '['),
          fc.record({
            pattern: fc.constant('b'),
            options: fc.constant({ limit: 2 }),
          }),
          fc.constant(5),
        ),
      ),
      fc.constant('nope'),
    ),
    settings: fc.oneof(
      section(fc.constantFrom(1, { deep: true })),
      fc.constant([]),
    ),
    protocols: fc.constant({ web: {} }),
  },
  { requiredKeys: [] },
);

/** Everything resolution and diagnostics read, in a comparable form. */
function view(p: PreparedConfig) {
  return {
    ids: p.ids,
    links: [...p.links],
    position: [...p.position],
    tagIndex: [...p.tagIndex],
    macros: [...p.macros],
    searchPatterns: [...p.searchPatterns].map(([k, v]) => [
      k,
      v.regex?.pattern(),
      v.options,
    ]),
    protocolNames: [...p.protocolNames],
    settings: JSON.stringify(p.settings),
    settingKeys: p.settings === undefined ? undefined : Object.keys(p.settings),
    droppedIds: [...(p.dropped?.ids ?? [])],
    droppedPatterns: [...(p.dropped?.searchPatterns ?? [])],
  };
}

describe('mergePrepared', () => {
  it('equals preparing the merged stored configs, for any configs', () => {
    fc.assert(
      fc.property(
        fc.array(config, { minLength: 1, maxLength: 4 }),
        (configs) => {
          const expected = prepareConfig(overlayConfigs(configs));
          const merged = mergePrepared(configs.map((c) => prepareConfig(c)));
          expect(view(merged)).toEqual(view(expected));
        },
      ),
      { numRuns: 500 },
    );
  });

  it('lets a later invalid link replace an earlier valid one, keeping first positions', () => {
    const merged = mergePrepared([
      prepareConfig({ allLinks: { p: { url: 'p' }, q: { url: 'q' }, r: {} } }),
      prepareConfig({
        allLinks: { r: { url: 'r' }, p: { label: 'no url' }, 5: { url: '5' } },
      }),
    ]);
    expect(merged.ids).toEqual(['5', 'q', 'r']);
  });

  it('shares the prepared links and compiled patterns of its parts', () => {
    const one = prepareConfig({
      allLinks: { a: { url: 'a' } },
      searchPatterns: { k: 'a' },
    });
    const merged = mergePrepared([one, prepareConfig({ allLinks: {} })]);
    expect(merged.links.get('a')).toBe(one.links.get('a'));
    expect(merged.searchPatterns.get('k')).toBe(one.searchPatterns.get('k'));
  });
});
