import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { validateLinkConfig } from '../schemas/validate-config.js';
import { applyMergePatch } from './merge-patch.js';
import { findLinkSpans, patchLinksText } from './link-text-patch.js';
import { countLinks, diffConfigs, summarizeDiff } from '../util/config-diff.js';
import { config, json, key } from './test-config-arbitraries.js';

const MAX_DEPTH = 6;

/** What a PATCH stores without the text path: the patched value, checked, serialized. */
function full(text: string, patch: unknown): string | undefined {
  const next = applyMergePatch(JSON.parse(text), patch);
  const checked = validateLinkConfig(next, { maxDepth: MAX_DEPTH });
  return checked.ok ? JSON.stringify(next) : undefined;
}

describe('patchLinksText', () => {
  it('answers exactly the full computation whenever it answers (generated configs and patches)', () => {
    const change = fc.oneof(
      fc.dictionary(key, fc.oneof(json, fc.dictionary(key, json)), {
        maxKeys: 3,
      }),
      fc.record({ url: fc.string({ maxLength: 3 }), label: json }),
      fc.constant(null),
      json,
    );
    // Each edit names a stored link (by its place) or a new key.
    const edit = fc.record({
      stored: fc.boolean(),
      pick: fc.nat(),
      id: fc.oneof(fc.string({ maxLength: 3 }), fc.constantFrom('7', 'n')),
      change,
    });
    const answered = { changed: 0, resized: 0 };
    fc.assert(
      fc.property(
        config,
        fc.array(edit, { minLength: 1, maxLength: 3 }),
        fc.boolean(),
        (value, edits, onlyLinks) => {
          // Every stored config passed the config check.
          fc.pre(validateLinkConfig(value, { maxDepth: MAX_DEPTH }).ok);
          const text = JSON.stringify(value);
          const spans = findLinkSpans(text);
          expect(spans).toBeDefined();
          if (spans === undefined) return;
          const ids = Object.keys(value.allLinks);
          const links: Record<string, unknown> = {};
          for (const e of edits) {
            const id = e.stored ? (ids[e.pick % ids.length] ?? '') : e.id;
            Object.defineProperty(links, id, {
              value: e.change,
              enumerable: true,
              configurable: true,
              writable: true,
            });
          }
          const patch = onlyLinks
            ? { allLinks: links }
            : { allLinks: links, settings: {} };
          const fast = patchLinksText({ text, spans }, patch, MAX_DEPTH);
          if (fast === undefined) return;
          const resized =
            fast.spans.starts.length !== spans.starts.length ||
            [...fast.spans.order.keys()].join() !== ids.join();
          answered[resized ? 'resized' : 'changed']++;
          expect(fast.json).toBe(full(text, patch));
          // The moved spans are where a fresh scan of the new text finds the links.
          expect(fast.spans).toEqual(findLinkSpans(fast.json));
          // Its counts are the one diff's of the two versions (a revision's summary).
          const after: unknown = JSON.parse(fast.json);
          expect(fast.counts).toEqual({
            ...summarizeDiff(diffConfigs(JSON.parse(text), after)),
            links: countLinks(after),
          });
        },
      ),
      { numRuns: 4000 },
    );
    // Not vacuous: about 3 runs in 40 reach each kind (about 300 and 260 of 4,000, spread about 20),
    // so these floors hold for every seed while a path that stopped answering would fail them.
    expect(answered.changed).toBeGreaterThan(150);
    expect(answered.resized).toBeGreaterThan(120);
  }, 120_000);

  it('chains: patches applied one after another on the moved spans match the full computation', () => {
    const value = {
      allLinks: Object.fromEntries(
        Array.from({ length: 40 }, (_, i) => [
          `l${i}`,
          { url: `https://example.com/${i}`, label: `Link ${i}`, tags: ['a'] },
        ]),
      ),
      macros: { m: { linkItems: '.a' } },
    };
    let text = JSON.stringify(value);
    let spans = findLinkSpans(text);
    let expected = text;
    for (let n = 0; n < 60; n++) {
      const patch = {
        allLinks: {
          [`l${(n * 7) % 40}`]: { label: 'é'.repeat(n % 5), tags: null },
          [`l${(n * 3) % 40}`]: { description: `d${n}` },
        },
      };
      expected = full(expected, patch) ?? '';
      const fast = spans && patchLinksText({ text, spans }, patch, MAX_DEPTH);
      expect(fast?.json).toBe(expected);
      text = fast?.json ?? '';
      spans = fast?.spans;
    }
  });

  it('leaves other patches to the full computation', () => {
    const text = JSON.stringify({
      allLinks: { a: { url: 'u' }, b: { url: 'v' } },
    });
    const spans = findLinkSpans(text);
    if (spans === undefined) throw new Error('no spans');
    const refused = [
      { allLinks: { a: null } }, // the first link removed
      { allLinks: { 3: { url: 'w' } } }, // a new key JavaScript orders first
      { allLinks: { c: { url: 1 } } }, // a new link the config check refuses
      { allLinks: { c: null } }, // nothing to do
      { allLinks: { a: 'x' } }, // not a merge of the link
      { allLinks: { a: { url: 1 } } }, // the config check refuses it
      { allLinks: { a: { deep: { x: { y: { z: {} } } } } } }, // too deep
      { allLinks: {} },
      { settings: { x: 1 } },
      ['a'],
    ];
    for (const patch of refused)
      expect(patchLinksText({ text, spans }, patch, MAX_DEPTH)).toBeUndefined();
  });

  it('finds the links of texts with spaces, escapes and links nested anywhere', () => {
    const text =
      '{ "settings" : {"allLinks": {"x": {"url": "no"}}}, "all\\u004cinks" :\n {"a\\"b" : {"url":"u\\"}"} ,"c":{"url":"[{"}} }';
    const spans = findLinkSpans(text);
    expect(spans && [...spans.order.keys()]).toEqual(['a"b', 'c']);
    expect(
      spans && [...spans.starts].map((s, i) => text.slice(s, spans.ends[i])),
    ).toEqual(['{"url":"u\\"}"}', '{"url":"[{"}']);
    expect(findLinkSpans('{"macros":{}}')).toBeUndefined();
  });
});
