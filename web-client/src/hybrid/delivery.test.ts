import { describe, expect, it } from 'vitest';
import type { LinkConfig } from '@linkconfig/shared';
import { alreadyApplied, PATCH_MIN_BYTES, patchOf } from './delivery.js';
import type { OutboxEntry, RemoteSide } from '../indexeddb/outbox.js';

const meta = {
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
};
const save = (config: LinkConfig): OutboxEntry => ({
  name: 'n',
  op: 'save',
  config,
  token: 't',
  queuedAt: meta.createdAt,
  baseEtag: null,
});
const server = (config: LinkConfig | null): RemoteSide => ({
  entry: config === null ? null : { config, meta },
  etag: config === null ? null : '"1-x"',
});

describe('alreadyApplied: does the server already hold this write? (H19)', () => {
  const mine: LinkConfig = {
    allLinks: {
      a: {
        url: 'javascript:alert(1)',
        label: 'a',
        meta: { homeUrl: 'data:,x' },
      },
    },
  };

  it('recognises a write with script URLs in the sanitized form the server answers', () => {
    const answered: LinkConfig = {
      allLinks: {
        a: { url: 'about:blank', label: 'a', meta: { homeUrl: 'about:blank' } },
      },
    };
    expect(alreadyApplied(save(mine), server(answered))).toBe(true);
    // A server (or a plain remote) that answers the stored form is recognised as well.
    expect(alreadyApplied(save(mine), server(mine))).toBe(true);
  });

  it('still sees any difference an answer shows: another label, another safe URL, no config', () => {
    const other = (link: Record<string, unknown>): LinkConfig => ({
      allLinks: { a: { url: 'about:blank', label: 'a', ...link } },
    });
    expect(alreadyApplied(save(mine), server(other({ label: 'b' })))).toBe(
      false,
    );
    expect(
      alreadyApplied(save(mine), server(other({ url: 'https://a.example/' }))),
    ).toBe(false);
    expect(alreadyApplied(save(mine), server(null))).toBe(false);
  });

  it('sees links in another order (the order of a menu) as a difference', () => {
    const two = (ids: string[]): LinkConfig => ({
      allLinks: Object.fromEntries(
        ids.map((id) => [id, { url: `https://${id}.example/` }]),
      ),
    });
    expect(alreadyApplied(save(two(['a', 'b'])), server(two(['b', 'a'])))).toBe(
      false,
    );
    expect(alreadyApplied(save(two(['a', 'b'])), server(two(['a', 'b'])))).toBe(
      true,
    );
  });

  it('counts a remove as applied when the server has no such config', () => {
    const remove: OutboxEntry = { ...save(mine), op: 'remove' };
    delete remove.config;
    expect(alreadyApplied(remove, server(null))).toBe(true);
    expect(alreadyApplied(remove, server(mine))).toBe(false);
  });
});

describe('patchOf: the difference as a merge patch, only when it says everything', () => {
  const links = (ids: string[]): LinkConfig => ({
    allLinks: Object.fromEntries(
      ids.map((id) => [
        id,
        { url: `https://example.com/${id}/${'x'.repeat(40)}`, tags: ['t'] },
      ]),
    ),
  });
  const ids = Array.from({ length: 60 }, (_, i) => `l${i}`);
  const based = (base: LinkConfig, config: LinkConfig): OutboxEntry => ({
    ...save(config),
    base,
    baseEtag: '"1-x"',
  });

  it('sends a small change of a large config as a patch', () => {
    const base = links(ids);
    expect(JSON.stringify(base).length).toBeGreaterThan(PATCH_MIN_BYTES);
    const config = structuredClone(base);
    config.allLinks['l3']!.tags = ['t', 'new'];
    expect(patchOf(based(base, config), config)).toEqual({
      allLinks: { l3: { tags: ['t', 'new'] } },
    });
  });

  it('sends the config whole when the links come back in a place a patch cannot say', () => {
    const base = links(ids.filter((id) => id !== 'l3'));
    const config = links(ids);
    expect(patchOf(based(base, config), config)).toBeUndefined();
    // Added last: a patch says it.
    const appended = links([...ids.filter((id) => id !== 'l3'), 'l3']);
    expect(patchOf(based(base, appended), appended)).toEqual({
      allLinks: { l3: appended.allLinks['l3'] },
    });
  });
});
