import {
  applyMergePatch,
  SearchInputSchema,
  validateLinkConfig,
} from '@linkconfig/shared';
import { RE2JS } from 're2js';
import { describe, expect, it } from 'vitest';
import {
  commonRegexSequence,
  commonTagSequence,
  commonWordSequence,
} from './common-sequences.js';
import { editSequences, PATCH_NAMES } from './patch-sequences.js';
import { countRepeats } from './request-sequences.js';
import type { BenchRequest, RequestSequence } from './request-sequences.js';
import { TAGS, WORDS } from '../vocabulary.js';

const all = (s: RequestSequence, n: number): BenchRequest[] =>
  Array.from({ length: n }, (_, i) => s.at(i));
const params = (r: BenchRequest) =>
  SearchInputSchema.parse(
    Object.fromEntries(new URL(r.path, 'http://x').searchParams),
  );

/** How often each term came, in a list of terms. */
function counts(terms: readonly string[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const t of terms) out.set(t, (out.get(t) ?? 0) + 1);
  return out;
}

describe('the common-terms mix', () => {
  it('draws words by their frequency in the dataset: the common ones most often', () => {
    const words = all(commonWordSequence(), 10_000).map(
      (r) => params(r).q?.toLowerCase() ?? '',
    );
    const seen = counts(words);
    const n = (rank: number) => seen.get(WORDS[rank - 1] ?? '') ?? 0;
    // Zipf: rank 1 comes about twice as often as rank 2, ten times as often as rank 10.
    expect(n(1)).toBeGreaterThan(1500);
    expect(n(1)).toBeGreaterThan(1.5 * n(2));
    expect(n(2)).toBeGreaterThan(n(10));
    expect(n(10)).toBeGreaterThan(n(100));
    expect(seen.size).toBeGreaterThan(150);
  });

  it('draws tags by frequency, each matched exactly', () => {
    const tags = all(commonTagSequence(), 10_000).map((r) => params(r).tag);
    const seen = counts(tags.map(String));
    expect([...seen.keys()].every((t) => TAGS.includes(t))).toBe(true);
    expect(seen.get(TAGS[0] ?? '') ?? 0).toBeGreaterThan(
      2 * (seen.get(TAGS[5] ?? '') ?? 0),
    );
  });

  it('writes \\b(A|B)\\s+\\w+ over two different common words, label and description only', () => {
    for (const r of all(commonRegexSequence(), 3000)) {
      const input = params(r);
      expect(input.fields).toEqual(['label', 'description']);
      const match = /^\\b\((\w+)\|(\w+)\)\\s\+\\w\+$/.exec(input.regex ?? '');
      expect(match).not.toBeNull();
      expect(match?.[1]?.toLowerCase()).not.toBe(match?.[2]?.toLowerCase());
      // The same pattern in RE2 and in JavaScript (what the references run).
      expect(() => RE2JS.compile(input.regex ?? '')).not.toThrow();
      expect(() => new RegExp(input.regex ?? '', 'i')).not.toThrow();
    }
  });

  it.each([
    ['common-q', commonWordSequence],
    ['common-tag', commonTagSequence],
    ['common-regex', commonRegexSequence],
  ])('%s sends no request twice in the first 120,000', (_, make) => {
    const sequence = make();
    expect(sequence.size).toBeGreaterThanOrEqual(120_000);
    expect(countRepeats(sequence, 120_000)).toBe(0);
    // The same index gives the same request, also from a second sequence built alike.
    expect(make().at(77_777)).toEqual(sequence.at(77_777));
  });
});

describe('the edit scenario', () => {
  const edits = editSequences(500);
  const base = JSON.parse(edits.setup[0]?.body ?? '') as unknown;

  it('creates its configs first: valid 500-link configs, one per name', () => {
    expect(edits.setup.map((r) => r.path)).toEqual(
      PATCH_NAMES.map((n) => `/configs/${n}`),
    );
    expect(validateLinkConfig(base).ok).toBe(true);
  });

  it('makes the same one-link edit as a PATCH (ours) and as a PUT of the whole config (others)', () => {
    for (const n of [0, 1, 7, 8, 499, 12_345]) {
      const patch = edits.patch.at(n);
      const put = edits.put.at(n);
      expect(patch.method).toBe('PATCH');
      expect(put.method).toBe('PUT');
      expect(patch.path).toBe(put.path);
      const body = JSON.parse(patch.body ?? '') as {
        allLinks: Record<string, unknown>;
      };
      expect(Object.keys(body.allLinks)).toHaveLength(1);
      expect(JSON.parse(put.body ?? '')).toEqual(applyMergePatch(base, body));
      expect(put.body).not.toBe(edits.setup[0]?.body);
    }
  });
});
