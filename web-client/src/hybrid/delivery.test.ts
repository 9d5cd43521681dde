import { describe, expect, it } from 'vitest';
import type { LinkConfig } from '@linkconfig/shared';
import { alreadyApplied } from './delivery.js';
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

  it('counts a remove as applied when the server has no such config', () => {
    const remove: OutboxEntry = { ...save(mine), op: 'remove' };
    delete remove.config;
    expect(alreadyApplied(remove, server(null))).toBe(true);
    expect(alreadyApplied(remove, server(mine))).toBe(false);
  });
});
