import { describe, expect, it } from 'vitest';
import { runWarmUp, WARM_UP_REQUESTS } from './warm-up.js';

describe('the start-up warm-up', () => {
  it('runs every request through to a real answer, so the paths it means to warm are taken', async () => {
    const answers = await runWarmUp();
    expect(answers.map((a) => a.status)).toEqual(
      WARM_UP_REQUESTS.map((r) => (r.method === 'PUT' ? 204 : 200)),
    );
    const json = (i: number) => JSON.parse(answers[i]?.body ?? '') as unknown;
    // Both searches by text find links (their answers are big enough to be compressed), as does the tag.
    for (const i of [1, 2, 3]) {
      expect(
        (json(i) as { results: unknown[] }).results.length,
      ).toBeGreaterThan(2);
    }
    // The query uses a macro, stored search patterns (one of alternatives), operators and refiners.
    const ids = (json(4) as { results: { id: string }[] }).results.map(
      (r) => r.id,
    );
    expect(ids).toEqual(
      expect.arrayContaining(['brooklynbridge', 'centralpark', 'espresso']),
    );
    expect(ids).not.toContain('miata');
    expect(json(5)).toMatchObject({ config: { allLinks: { joe: {} } } });
  });
});
