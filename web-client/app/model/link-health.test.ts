import type { LinkHealthEntry } from '@linkconfig/shared';
import { describe, expect, it } from 'vitest';
import {
  ago,
  evidence,
  facetCounts,
  healthOf,
  inFacet,
  movedLinks,
  newUrlOf,
} from './link-health.js';

function entry(
  [id, url, state]: [string, string, LinkHealthEntry['state']],
  more: Partial<LinkHealthEntry> = {},
): LinkHealthEntry {
  return {
    id,
    url,
    state,
    since: null,
    checkedAt: '2026-01-01T00:00:00.000Z',
    status: null,
    finalUrl: null,
    reason: null,
    failingSince: null,
    failures: 0,
    ...more,
  };
}

const links = {
  a: { url: 'https://a.test/x#top' },
  b: { url: 'https://b.test/' },
  c: { url: 'https://c.test/old' },
  d: { url: 'https://d.test/' },
  e: { url: 'https://e.test/edited' },
};
const health = {
  a: entry(['a', 'https://a.test/x', 'redirected'], {
    finalUrl: 'https://a.test/y',
    status: 200,
  }),
  b: entry(['b', 'https://b.test/', 'broken'], {
    status: 404,
    reason: 'HTTP 404',
  }),
  c: entry(['c', 'https://c.test/old', 'redirected'], {
    finalUrl: 'https://c.test/new#frag',
  }),
  d: entry(['d', 'https://d.test/', 'unreachable'], { reason: 'timeout' }),
  e: entry(['e', 'https://e.test/before', 'broken']),
};

describe('link health of the draft', () => {
  it("applies a URL's health to a link only while the link keeps that URL (the fragment aside)", () => {
    expect(healthOf('a', links.a, health)?.state).toBe('redirected');
    expect(healthOf('e', links.e, health)).toBeUndefined();
    expect(healthOf('z', undefined, health)).toBeUndefined();
  });

  it('counts Broken (broken and unreachable) and Moved (redirected), edited links left out', () => {
    expect(facetCounts(links, health)).toEqual({ broken: 2, moved: 2 });
    expect(inFacet('broken', { id: 'd', link: links.d }, health)).toBe(true);
    expect(inFacet('broken', { id: 'e', link: links.e }, health)).toBe(false);
    expect(inFacet('moved', { id: 'b', link: links.b }, health)).toBe(false);
  });

  it("offers the new URL of moved links, keeping the link's own fragment when the new one has none", () => {
    expect(newUrlOf('a', links.a, health)).toBe('https://a.test/y#top');
    expect(newUrlOf('c', links.c, health)).toBe('https://c.test/new#frag');
    expect(newUrlOf('b', links.b, health)).toBeNull();
    expect(movedLinks(links, health)).toEqual([
      { id: 'a', url: 'https://a.test/y#top' },
      { id: 'c', url: 'https://c.test/new#frag' },
    ]);
  });

  it('says the evidence in words', () => {
    const now = Date.parse('2026-01-01T03:00:00.000Z');
    expect(evidence(health.b, now)).toEqual([
      'Last checked 3 hours ago.',
      'Evidence: HTTP 404.',
    ]);
    const failing = entry(['f', 'https://f.test/', 'ok'], {
      failingSince: '2026-01-01T00:00:00.000Z',
      failures: 1,
      reason: 'HTTP 500',
    });
    expect(evidence(failing, now).at(-1)).toMatch(
      /^Failing since 3 hours ago \(1 failure\), not yet confirmed/,
    );
    expect(ago('2026-01-01T02:59:30.000Z', now)).toBe('just now');
    expect(ago('2025-12-29T03:00:00.000Z', now)).toBe('3 days ago');
  });
});
