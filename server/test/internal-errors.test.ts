/**
 * A failure that is not a rule of the service (here a storage error) is answered with one fixed text
 * over REST and tRPC alike: its own message, which may name files, tables or values, stays in the log.
 */
import { describe, expect, it } from 'vitest';
import { createMemoryConfigRepository } from '../src/storage/memory/memory-config-repository.js';
import type { ConfigRepository } from '../src/storage/config-repository.js';
import { INTERNAL_ERROR_MESSAGE } from '../src/errors.js';
import { createTestApp } from './test-app.js';

const SECRET = 'SQLITE_CORRUPT in /srv/secret/links.db, table kept_revisions';

/** A memory repository whose every method throws {@link SECRET} once broken. */
function breakable(): { repository: ConfigRepository; breakIt: () => void } {
  const inner = createMemoryConfigRepository();
  let broken = false;
  const repository = new Proxy(inner, {
    get(target, key) {
      const value: unknown = Reflect.get(target, key, target);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]): unknown => {
        if (broken) throw new Error(SECRET);
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  return { repository, breakIt: () => (broken = true) };
}

describe('an internal failure', () => {
  it('is answered 500 with the same fixed text over REST and tRPC, without its own message', async () => {
    const { repository, breakIt } = breakable();
    const t = createTestApp({ repository });
    breakIt();
    const rest = await t.request('/configs/team');
    const restText = await rest.text();
    expect(rest.status).toBe(500);
    expect(JSON.parse(restText)).toEqual({ error: INTERNAL_ERROR_MESSAGE });
    const trpc = await t.request(
      `/trpc/configs.get?input=${encodeURIComponent(JSON.stringify({ name: 'team' }))}`,
    );
    const trpcText = await trpc.text();
    expect(trpc.status).toBe(500);
    const body = JSON.parse(trpcText) as {
      error: { message: string; data: { code: string } };
    };
    expect(body.error.message).toBe(INTERNAL_ERROR_MESSAGE);
    expect(body.error.data.code).toBe('INTERNAL_SERVER_ERROR');
    for (const text of [restText, trpcText])
      expect(text).not.toContain('SQLITE');
  });
});
