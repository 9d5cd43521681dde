/**
 * Issue 33, item 2: a merge patch of some links is applied to the stored text (`patchLinksText`) instead
 * of the parsed config. The stored text after every PATCH is compared with the full computation (the
 * stored value patched, checked and serialized), on SQLite with its group commit: sequential patches,
 * patches sent at once (a later write of a group finds the text an earlier one decided), patches of
 * other shapes, a text that is not canonical, a refused result.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { applyMergePatch, validateLinkConfig } from '@linkconfig/shared';
import { afterAll, describe, expect, it } from 'vitest';
import { createCaches } from '../cache/cache-policy.js';
import { createSqliteConfigRepository } from '../storage/sqlite/sqlite-config-repository.js';
import type { ConfigVersion } from '../versions/config-version.js';
import { ConfigService } from './config-service.js';

const dir = mkdtempSync(join(tmpdir(), 'linkconfig-patched-text-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let databases = 0;

function open() {
  const repository = createSqliteConfigRepository({
    path: join(dir, `db-${++databases}.sqlite`),
  });
  const configs = new ConfigService({
    repository,
    cache: createCaches<ConfigVersion>().versions,
    now: () => new Date(),
  });
  const text = async (name: string): Promise<string> =>
    (await repository.get(name))?.json ?? '';
  return { repository, configs, text };
}

/** What the stored text must be after `patch`: the full computation. */
function expected(before: string, patch: unknown): string {
  const next = applyMergePatch(JSON.parse(before), patch);
  expect(validateLinkConfig(next).ok).toBe(true);
  return JSON.stringify(next);
}

function config(links: number): Record<string, unknown> {
  const allLinks: Record<string, unknown> = {};
  for (let i = 0; i < links; i++)
    allLinks[`l${i}`] = {
      url: `https://example.org/${i}`,
      label: `Link "${i}" é`,
      tags: [`t${i % 5}`],
      meta: { n: i, when: { at: i * 1.5 } },
    };
  return { allLinks, macros: { m: { linkItems: '.t1' } }, settings: {} };
}

/** The n-th patch: one or two links, of several shapes. */
function patchOf(n: number, links: number): Record<string, unknown> {
  const a = `l${(n * 37) % links}`;
  const b = `l${(n * 11 + 5) % links}`;
  const shapes = [
    { allLinks: { [a]: { label: `Edited ${n}` } } },
    { allLinks: { [a]: { tags: ['x', `n${n}`], meta: { n: null } } } },
    { allLinks: { [a]: { description: '\u2028 "q" \\' }, [b]: { label: '' } } },
    { allLinks: { [a]: { meta: { when: { at: -0 } } } } },
  ];
  return shapes[n % shapes.length] ?? {};
}

describe('PATCH of some links, on the stored text', () => {
  it('stores after each patch exactly what the full computation makes', async () => {
    const { repository, configs, text } = open();
    await configs.put('c', config(120));
    for (let n = 0; n < 40; n++) {
      const before = await text('c');
      const patch = patchOf(n, 120);
      await configs.patch('c', patch);
      expect(await text('c')).toBe(expected(before, patch));
    }
    await repository.close();
  });

  it('stores the full computation when patches of one config meet in a write group', async () => {
    const { repository, configs, text } = open();
    await configs.put('c', config(64));
    // Distinct links per patch: the order the writes commit in does not change the result.
    const patches = Array.from({ length: 32 }, (_, n) => ({
      allLinks: { [`l${n * 2}`]: { label: `Edited ${n}`, tags: [`n${n}`] } },
    }));
    let want = await text('c');
    for (const patch of patches) want = expected(want, patch);
    for (let round = 0; round < 2; round++) {
      await Promise.all(patches.map((patch) => configs.patch('c', patch)));
    }
    expect(await text('c')).toBe(want);
    await repository.close();
  });

  it('answers other patches, texts and refusals as the full computation does', async () => {
    const { repository, configs, text } = open();
    // Stored with spacing: not what JSON.stringify writes, so the text path steps aside.
    const spaced = JSON.stringify(config(10), null, 2);
    await configs.put('c', JSON.parse(spaced) as unknown);
    await repository.put('s', spaced, {});
    for (const name of ['c', 's']) {
      for (const patch of [
        { allLinks: { l1: { label: 'x' } } },
        { allLinks: { new: { url: 'https://new.example' } } },
        { allLinks: { l2: null }, settings: { theme: 'dark' } },
      ]) {
        const before = await text(name);
        await configs.patch(name, patch);
        expect(await text(name)).toBe(expected(before, patch));
      }
    }
    const before = await text('c');
    await expect(
      configs.patch('c', { allLinks: { l3: { url: 7 } } }),
    ).rejects.toThrow(
      'the patched config is not valid: allLinks.l3.url must be a string',
    );
    expect(await text('c')).toBe(before);
    await repository.close();
  });
});
