import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { inspectJsonText } from '../schemas/json-fidelity.js';
import { validateLinkConfig } from '../schemas/validate-config.js';
import { countLinks, diffConfigs, summarizeDiff } from '../util/config-diff.js';
import { EDIT_MAX_CHARS, linkEditOfText } from './link-text-edit.js';
import { findLinkSpans } from './link-text-patch.js';
import type { LinkSpans } from './link-text-patch.js';
import { config, links } from './test-config-arbitraries.js';

const MAX_DEPTH = 6;

/**
 * What a PUT of `next` over the stored `old` works out without the edit: parse, the fidelity scan, the
 * config check with its depth, the one diff's counts and where the links sit; `undefined` when refused.
 */
function full(old: string, next: string) {
  let value: unknown;
  try {
    value = JSON.parse(next);
  } catch {
    return undefined;
  }
  const facts = inspectJsonText(next);
  if (facts.infidelity !== undefined) return undefined;
  const checked = validateLinkConfig(value, {
    maxDepth: MAX_DEPTH,
    depth: facts.depth,
  });
  if (!checked.ok) return undefined;
  return {
    counts: {
      ...summarizeDiff(diffConfigs(JSON.parse(old), value)),
      links: countLinks(value),
    },
    spans: comparable(findLinkSpans(next)),
  };
}

const comparable = (spans: LinkSpans | undefined) =>
  spans === undefined
    ? undefined
    : {
        order: [...spans.order].sort((a, b) => a[1] - b[1]),
        starts: [...spans.starts],
        ends: [...spans.ends],
      };

const spacing = fc.constantFrom(0, 1, 2);

/** A stored text (the config check accepts it) with its spacing, and where its links sit. */
const stored = fc
  .tuple(config, spacing)
  .map(([value, space]) => JSON.stringify(value, null, space))
  .filter((text) => full(text, text) !== undefined);

/** Text edits of any kind: characters replaced, put in or cut out somewhere. */
const textEdit = fc.record({
  at: fc.nat(),
  cut: fc.nat({ max: 6 }),
  put: fc.oneof(
    fc.string({ maxLength: 6 }),
    fc.stringMatching(/^[{}[\]",:0-9e.\- a\\]{0,6}$/),
    fc.constantFrom(
      '1e400',
      '12345678901234567890123',
      '"url":1',
      '"__proto__":{}',
      '\\u0061',
      ',"x":{"url":"u"}',
    ),
  ),
});

function applyTextEdit(
  text: string,
  edit: { at: number; cut: number; put: string },
): string {
  const at = edit.at % (text.length + 1);
  return text.slice(0, at) + edit.put + text.slice(at + edit.cut);
}

/** The units both texts share at their start, then at their end in what is left, one by one. */
function naiveCut(old: string, next: string) {
  const max = Math.min(old.length, next.length);
  let head = 0;
  while (head < max && old[head] === next[head]) head++;
  let tail = 0;
  while (
    tail < max - head &&
    old[old.length - 1 - tail] === next[next.length - 1 - tail]
  )
    tail++;
  return { head, tail };
}

function check(old: string, next: string): 'edit' | 'full' {
  const spans = findLinkSpans(old);
  if (spans === undefined) throw new Error('a stored text has links');
  const edit = linkEditOfText({ text: old, spans }, next, MAX_DEPTH);
  if (edit === undefined) return 'full';
  expect({ counts: edit.counts, spans: comparable(edit.spans) }).toEqual(
    full(old, next),
  );
  // The cut the history's delta takes from it.
  expect(edit.cut).toEqual(naiveCut(old, next));
  return 'edit';
}

describe('linkEditOfText', () => {
  it('answers what the full computation answers whenever it answers (value edits of the links)', () => {
    let edits = 0;
    fc.assert(
      fc.property(
        stored,
        fc.tuple(spacing, links, fc.array(fc.nat(), { maxLength: 3 })),
        (old, [space, fresh, replaced]) => {
          const value = JSON.parse(old) as {
            allLinks: Record<string, unknown>;
          };
          const ids = Object.keys(value.allLinks);
          // Some links replaced by fresh ones (changed, renamed away or kept), fresh ones added.
          for (const [k, n] of replaced.entries()) {
            const id = ids[n % ids.length] ?? '';
            const [freshId, freshLink] = Object.entries(fresh)[k] ?? [];
            if (freshId === undefined || k % 3 === 2) delete value.allLinks[id];
            else value.allLinks[id] = freshLink;
          }
          if (replaced.length === 0) Object.assign(value.allLinks, fresh);
          const spaced = JSON.parse(old) as unknown;
          const sameSpacing = JSON.stringify(spaced, null, space) === old;
          const next = JSON.stringify(value, null, sameSpacing ? space : 0);
          if (check(old, next) === 'edit') edits++;
        },
      ),
      { numRuns: 600 },
    );
    // Far from every generated edit falls back to the full computation.
    expect(edits).toBeGreaterThan(100);
  }, 60_000);

  it('refuses whatever the full computation refuses (text edits of any kind)', () => {
    let edits = 0;
    fc.assert(
      fc.property(
        stored,
        fc.array(textEdit, { minLength: 1, maxLength: 2 }),
        (old, changes) => {
          const next = changes.reduce(applyTextEdit, old);
          if (check(old, next) === 'edit') edits++;
        },
      ),
      { numRuns: 1500 },
    );
    expect(edits).toBeGreaterThan(20);
  }, 60_000);

  it('refuses a link renamed to the key of another one, before or after it', () => {
    fc.assert(
      fc.property(stored, fc.nat(), fc.nat(), (old, a, b) => {
        const spans = findLinkSpans(old);
        const ids = [...(spans?.order.keys() ?? [])];
        const from = ids[a % ids.length] ?? '';
        const to = ids[b % ids.length] ?? '';
        if (spans === undefined || from === to) return;
        // The key's text is the one before its value.
        const start = spans.starts[spans.order.get(from) ?? 0] ?? 0;
        const quote = old.lastIndexOf(`${JSON.stringify(from)}`, start);
        const next =
          old.slice(0, quote) +
          JSON.stringify(to) +
          old.slice(quote + JSON.stringify(from).length);
        expect(full(old, next)).toBeUndefined();
        expect(
          linkEditOfText({ text: old, spans }, next, MAX_DEPTH),
        ).toBeUndefined();
      }),
      { numRuns: 500 },
    );
  }, 60_000);

  it('does not ask where the links sit when the texts differ in a run too long to read as an edit', () => {
    const old = JSON.stringify({
      allLinks: { a: { url: 'x'.repeat(EDIT_MAX_CHARS + 1) } },
    });
    const template = {
      text: old,
      get spans(): never {
        throw new Error('the places were asked');
      },
    };
    expect(
      linkEditOfText(template, old.replaceAll('x', 'y'), MAX_DEPTH),
    ).toBeUndefined();
    expect(() =>
      linkEditOfText(template, old.replace('xx', 'xy'), MAX_DEPTH),
    ).toThrow('the places were asked');
  });

  it('changes one link of a large config as the full computation does', () => {
    const allLinks: Record<string, unknown> = {};
    for (let i = 0; i < 500; i++)
      allLinks[`l${i}`] = {
        url: `https://example.com/${i}`,
        label: `Link ${i}`,
      };
    const old = JSON.stringify({ allLinks, settings: { a: 1 } });
    const next = old.replace('"Link 250"', '"Saved 7"');
    expect(check(old, next)).toBe('edit');
    const spans = findLinkSpans(old);
    if (spans === undefined) throw new Error('links');
    expect(
      linkEditOfText({ text: old, spans }, next, MAX_DEPTH)?.counts,
    ).toEqual({
      added: 0,
      removed: 0,
      changed: 1,
      links: 500,
    });
    // A key of another link, a number that does not read back, a link without its url: all refused.
    for (const refused of [
      old.replace('"l251":', '"l3":'),
      old.replace('"l250":', '"l400":'),
      old.replace('"Link 250"', '1e400'),
      old.replace('"url":"https://example.com/250"', '"href":"x"'),
      old.replace('"Link 250"', '{"a":{"b":{"c":{"d":1}}}}'),
    ]) {
      expect(full(old, refused)).toBeUndefined();
      expect(
        linkEditOfText({ text: old, spans }, refused, MAX_DEPTH),
      ).toBeUndefined();
    }
  });
});
