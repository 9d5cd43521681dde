/**
 * Issue 17, item 7: an inline config is parsed, checked and prepared on every request, so bodies that do
 * not store a config have their own, lower limit (`INLINE_BODY_LIMIT`, 1 MiB by default), named in the 413.
 */
import { describe, expect, it } from 'vitest';
import { createTestApp } from './test-app.js';

/** A config whose JSON is a little over `bytes` long. */
function configOf(bytes: number): Record<string, unknown> {
  const links = Math.ceil(bytes / 60);
  return {
    allLinks: Object.fromEntries(
      Array.from({ length: links }, (_, i) => [
        `l${i}`,
        { url: `https://example.org/${i}`, label: `Link ${i}` },
      ]),
    ),
  };
}

const errorOf = async (response: Response) =>
  ((await response.json()) as { error: string }).error;

const INLINE_LIMIT =
  /larger than the limit of 1048576 bytes \(INLINE_BODY_LIMIT/;

describe('INLINE_BODY_LIMIT', () => {
  const big = configOf(1.2 * 1024 * 1024);

  it('refuses an inline config over 1 MiB with 413 naming the limit, on every inline route', async () => {
    const t = createTestApp();
    const bodies: [string, unknown][] = [
      ['/query', { configs: [big], expression: 'l1' }],
      ['/cherry-pick', { source: big, expression: 'l1' }],
      ['/expressions/check', { config: big }],
    ];
    for (const [path, body] of bodies) {
      const response = await t.post(path, body);
      expect(response.status).toBe(413);
      expect(await errorOf(response)).toMatch(INLINE_LIMIT);
    }
  });

  it('still stores the same config (BODY_LIMIT), and queries it by name', async () => {
    const t = createTestApp();
    expect((await t.put('big', big)).status).toBe(204);
    const response = await t.post('/query', {
      configName: 'big',
      expression: 'l1 | l2',
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({
      results: [
        { url: 'https://example.org/1' },
        { url: 'https://example.org/2' },
      ],
    });
  });

  it('applies to /trpc reads, not to /trpc writes', async () => {
    const t = createTestApp();
    const query = await t.post('/trpc/expressions.query', {
      configs: [big],
      expression: 'l1',
    });
    expect(query.status).toBe(413);
    expect(await errorOf(query)).toMatch(INLINE_LIMIT);
    const put = await t.post('/trpc/configs.put', { name: 'big', config: big });
    expect(put.status).toBe(200);
  });

  it('can be raised up to BODY_LIMIT', async () => {
    const t = createTestApp({ inlineBodyLimit: 4 * 1024 * 1024 });
    const response = await t.post('/query', {
      configs: [big],
      expression: 'l1',
    });
    expect(response.status).toBe(200);
  });
});
