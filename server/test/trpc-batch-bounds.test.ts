/**
 * A `/trpc` batch is one request, and is bounded as one: at most `LIMITS.trpcBatchMax` calls, answers
 * that together stay within twice the stored body limit, and each call that stores no config held to the
 * inline body limit even when another call of the batch stores one.
 */
import { LIMITS } from '@linkconfig/shared';
import { describe, expect, it } from 'vitest';
import { createTestApp } from './test-app.js';

/** The URL of a batch calling `paths` with `inputs` (GET: the inputs in the query). */
const batchUrl = (paths: string[], inputs?: unknown[]) =>
  `/trpc/${paths.join(',')}?batch=1${
    inputs === undefined
      ? ''
      : `&input=${encodeURIComponent(JSON.stringify({ ...inputs }))}`
  }`;

/** A config of about `chars` characters of JSON. */
const configOf = (chars: number) => ({
  allLinks: {
    big: { label: 'x'.repeat(chars), url: 'https://big.example/' },
  },
});

type BatchAnswer = {
  result?: unknown;
  error?: { message: string; data: { httpStatus: number } };
}[];

describe('a /trpc batch', () => {
  it(`has at most ${LIMITS.trpcBatchMax} calls`, async () => {
    const t = createTestApp();
    const paths = (n: number) => Array<string>(n).fill('configs.list');
    expect((await t.request(batchUrl(paths(LIMITS.trpcBatchMax)))).status).toBe(
      200,
    );
    const over = await t.request(batchUrl(paths(LIMITS.trpcBatchMax + 1)));
    expect(over.status).toBe(400);
    expect(await over.text()).toContain('Batch call exceeds maximum size');
  });

  it('answers within twice the stored body limit: the call that would pass it gets 413, the others their answers', async () => {
    const t = createTestApp({ bodyLimit: 100_000, inlineBodyLimit: 50_000 });
    for (const name of ['a', 'b', 'c'])
      expect((await t.put(name, configOf(80_000))).ok).toBe(true);
    const names = ['a', 'b', 'c'];
    const response = await t.request(
      batchUrl(
        names.map(() => 'configs.get'),
        names.map((name) => ({ name })),
      ),
    );
    const answers = (await response.json()) as BatchAnswer;
    // Two answers of ~80,000 characters fit in 200,000; the third does not.
    expect(answers.filter((a) => a.result !== undefined)).toHaveLength(2);
    const refused = answers.filter((a) => a.error !== undefined);
    expect(refused).toHaveLength(1);
    expect(refused[0]?.error?.data.httpStatus).toBe(413);
    expect(refused[0]?.error?.message).toBe(
      'the answers of this batch would pass 200000 characters of JSON; make this call on its own',
    );
    // Each call on its own is answered.
    for (const name of names) {
      const alone = await t.request(
        `/trpc/configs.get?input=${encodeURIComponent(JSON.stringify({ name }))}`,
      );
      expect(alone.status).toBe(200);
    }
  });

  it('holds a call that stores no config to the inline limit, even beside one that does', async () => {
    const t = createTestApp({ bodyLimit: 100_000, inlineBodyLimit: 20_000 });
    const inline = { configs: [configOf(40_000)], expression: 'big' };
    const body = JSON.stringify({
      0: { name: 'small', config: { allLinks: {} } },
      1: inline,
    });
    const response = await t.request(
      batchUrl(['configs.put', 'expressions.query']),
      {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body,
      },
    );
    expect(response.status).toBe(413);
    expect(await response.json()).toEqual({
      error:
        'the input of call 1 (expressions.query) is larger than the limit of 20000 bytes (INLINE_BODY_LIMIT, for bodies that do not store a config)',
    });
    // Nothing of the batch ran.
    expect((await t.request('/configs/small')).status).toBe(404);
    // A stored config of the same size in the same batch is within its own limit.
    const storing = await t.request(
      batchUrl(['configs.put', 'expressions.query']),
      {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({
          0: { name: 'large', config: configOf(40_000) },
          1: { configs: [{ allLinks: {} }], expression: 'x' },
        }),
      },
    );
    expect(storing.status).toBe(200);
    expect((await t.request('/configs/large')).status).toBe(200);
  });
});
