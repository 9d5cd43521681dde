import { describe, expect, it } from 'vitest';
import { mergePrepared, resolve } from '@linkconfig/shared';
import { ConfigVersion } from './config-version.js';
import { queryAnswerText, resultTexts } from './result-texts.js';

/** A stored row of config `name` whose links carry `mark` in their labels. */
function row(name: string, version: number, mark: string) {
  const allLinks = {
    a: {
      url: 'https://example.org/a',
      label: `A "${mark}" é ✓`,
      tags: ['x', 'y'],
      description: 'line\nbreak',
      createdAt: '2025-01-02T03:04:05.000Z',
    },
    b: { url: 'https://example.org/b', label: `B ${mark}`, tags: ['x'] },
    [`o${mark}`]: { url: `https://example.org/${mark}`, tags: ['x'] },
  };
  return {
    name,
    version,
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
    json: JSON.stringify({ allLinks }),
  };
}

const idsOf = (results: readonly { id: string }[]) => results.map((r) => r.id);

describe('query answer texts (issue 23)', () => {
  it('writes exactly what JSON.stringify writes, for one version', () => {
    const version = new ConfigVersion(row('one', 1, 'p'));
    const results = resolve(version.prepared, '.x *sort:label*');
    expect(results.length).toBe(3);
    expect(queryAnswerText(version.prepared, [version], idsOf(results))).toBe(
      JSON.stringify({ results }),
    );
    expect(queryAnswerText(version.prepared, [version], [])).toBe(
      JSON.stringify({ results: [] }),
    );
    // An id without a link is no result, as in toResolvedLinks.
    expect(
      queryAnswerText(version.prepared, [version], ['zz', ...idsOf(results)]),
    ).toBe(JSON.stringify({ results }));
  });

  it('takes each merged link from the version that owns it (the last one that has its id)', () => {
    const first = new ConfigVersion(row('first', 1, 'p'));
    const second = new ConfigVersion(row('second', 2, 'q'));
    const merged = mergePrepared([first.prepared, second.prepared]);
    const results = resolve(merged, '.x');
    expect(results.map((r) => r.id).sort()).toEqual(
      ['a', 'b', 'op', 'oq'].sort(),
    );
    const text = queryAnswerText(merged, [first, second], idsOf(results));
    expect(text).toBe(JSON.stringify({ results }));
    expect(text).toContain('B q');
    expect(text).not.toContain('B p');
  });

  it('writes a link no version holds as usual', () => {
    const version = new ConfigVersion(row('one', 1, 'p'));
    const other = new ConfigVersion(row('other', 3, 'r'));
    const results = resolve(other.prepared, '.x');
    // The texts of `version` were written from other link objects: none is used.
    expect(queryAnswerText(other.prepared, [version], idsOf(results))).toBe(
      JSON.stringify({ results }),
    );
  });

  it('keeps the texts with the version, weighed, built once', () => {
    const version = new ConfigVersion(row('one', 1, 'p'));
    void version.prepared;
    const before = version.weight;
    const texts = resultTexts(version);
    expect(texts.size).toBe(3);
    expect(resultTexts(version)).toBe(texts);
    const textChars = [...texts.values()].reduce(
      (sum, t) => sum + t.text.length,
      0,
    );
    expect(version.weight - before).toBeGreaterThanOrEqual(textChars);
  });
});
