import { describe, expect, it } from 'vitest';
import type { SliceOptions } from '@linkconfig/shared';
import { ConfigVersion } from './config-version.js';

/** A stored row of a config with `links` links. */
function row(links: number) {
  const allLinks = Object.fromEntries(
    Array.from({ length: links }, (_, i) => [
      `l${i}`,
      { url: `https://example.org/${i}`, tags: [`t${i % 5}`] },
    ]),
  );
  return {
    name: 'big',
    version: 1,
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
    json: JSON.stringify({ allLinks }),
  };
}

/** Slices that pause at every step, counting the pauses. */
function everyStep(): SliceOptions & { pauses: () => number } {
  let pauses = 0;
  return {
    sliceMs: 0,
    pause: () => Promise.resolve(void (pauses += 1)),
    pauses: () => pauses,
  };
}

describe('ConfigVersion.preparedInSlices (issue 17, item 7)', () => {
  it('prepares in slices, pausing between them, to the same prepared form', async () => {
    const slices = everyStep();
    const version = new ConfigVersion(row(1000));
    const prepared = await version.preparedInSlices(slices);
    expect(slices.pauses()).toBeGreaterThanOrEqual(10);
    expect(prepared).toEqual(new ConfigVersion(row(1000)).prepared);
    // Built once: kept as the version's prepared form, weighed with it.
    expect(version.prepared).toBe(prepared);
    expect(await version.preparedInSlices(slices)).toBe(prepared);
  });

  it('shares one build between callers that ask while it runs', async () => {
    const slices = everyStep();
    const version = new ConfigVersion(row(500));
    const [a, b] = await Promise.all([
      version.preparedInSlices(slices),
      version.preparedInSlices(slices),
    ]);
    expect(a).toBe(b);
    expect(slices.pauses()).toBeLessThan(500 / 64 + 1);
  });

  it('grows its weight when the prepared form is built', async () => {
    const version = new ConfigVersion(row(200));
    let told = 0;
    version.onWeightChange = () => (told += 1);
    const before = version.weight;
    await version.preparedInSlices(everyStep());
    expect(version.weight).toBeGreaterThan(before);
    expect(told).toBeGreaterThan(0);
  });
});

describe('ConfigVersion with the value its write parsed', () => {
  it('keeps that value as the stored config instead of parsing the text again', () => {
    const r = row(3);
    const parsed = JSON.parse(r.json) as Record<string, unknown>;
    const version = new ConfigVersion(r, parsed);
    expect(version.stored).toBe(parsed);
    expect(version.shape.links).toBe(3);
    expect(version.weight).toBe(new ConfigVersion(r, parsed).weight);
  });

  it('weighs the parsed value, not the text, as a version whose text was parsed', () => {
    const r = row(50);
    const lazy = new ConfigVersion(r);
    void lazy.stored;
    expect(new ConfigVersion(r, JSON.parse(r.json) as never).weight).toBe(
      lazy.weight,
    );
  });

  it("keeps and weighs its text when made by a write, for the next write's history delta", () => {
    const r = row(50);
    const parsed = JSON.parse(r.json) as Record<string, unknown>;
    const written = new ConfigVersion(r, parsed, true);
    expect(written.heldText).toEqual({ version: 1, json: r.json });
    expect(written.weight).toBe(
      new ConfigVersion(r, parsed).weight + r.json.length,
    );
    const read = new ConfigVersion(r);
    expect(read.heldText?.json).toBe(r.json);
    void read.stored;
    expect(read.heldText).toBeUndefined();
  });
});

describe('ConfigVersion.weightIndexed', () => {
  it('is the weight the version has once indexed, when sanitizing changes a link and when it does not', () => {
    const clean = row(200);
    const sanitized = {
      ...clean,
      json: clean.json.replace('https://example.org/7', 'javascript:alert(1)'),
    };
    for (const r of [clean, sanitized]) {
      const version = new ConfigVersion(r);
      const predicted = version.weightIndexed();
      void version.searchIndex;
      expect(version.weight).toBe(predicted);
    }
  });
});
