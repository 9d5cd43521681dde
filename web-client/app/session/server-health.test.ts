import { hasHistory, isVersionedRemote } from '@linkconfig/web-client';
import type { HistoryStore } from '@linkconfig/web-client';
import { describe, expect, it } from 'vitest';
import {
  createScriptedRemote,
  remoteFailure,
} from '../../src/testing/test-remote.js';
import { ACCESS, ServerHealth } from './server-health.js';

const links = { allLinks: { a: { url: 'https://example.com/a' } } };

function observed() {
  const server = createScriptedRemote();
  const remote = server.store;
  if (!isVersionedRemote(remote))
    throw new Error('expected a versioned remote');
  const health = new ServerHealth(() => false);
  return { server, health, store: health.observe(remote) };
}

describe('ServerHealth.observe', () => {
  it('keeps the versioned calls, so the hybrid store still sends preconditions and follows the feed', async () => {
    const { server, health, store } = observed();
    expect(isVersionedRemote(store)).toBe(true);
    const { etag } = await store.saveVersioned('n', links, {
      ifNoneMatch: '*',
    });
    expect(server.calls.at(-1)).toMatchObject({ op: 'save', name: 'n' });
    expect(health.accessFor('write')).toBe(ACCESS.ok);
    const loaded = await store.loadVersioned('n', { ifNoneMatch: etag });
    expect(loaded).toEqual({ status: 'not-modified', etag });
    await expect(
      store.saveVersioned('n', links, { ifMatch: '"stale"' }),
    ).rejects.toMatchObject({ kind: 'conflict', status: 412 });
    // A conflict is an answer of the server, not a failure of access.
    expect(health.failureOf('write')).toBeNull();
  });

  it('records refusals of versioned calls like those of the plain ones', async () => {
    const { server, health, store } = observed();
    server.setScript((call) => remoteFailure(call, 401));
    await expect(store.loadVersioned('n')).rejects.toMatchObject({
      status: 401,
    });
    expect(health.accessFor('read')).toBe(ACCESS.needsToken);
    server.setScript((call) => remoteFailure(call, 503));
    await expect(store.removeVersioned('n')).rejects.toMatchObject({
      status: 503,
    });
    expect(health.failureOf('write')?.status).toBe(503);
  });

  it('keeps the history calls, counting reads and the restore (a write) like the others', async () => {
    const server = createScriptedRemote();
    const page = { revisions: [], next: null };
    const history: HistoryStore = {
      history: () => Promise.resolve(page),
      loadRevision: () => Promise.resolve(null),
      diff: () => Promise.reject(new Error('not asked')),
      listDeleted: () => Promise.resolve(['gone']),
      restore: () =>
        Promise.reject(remoteFailure({ op: 'save', name: 'n' }, 403)),
    };
    const remote = server.store;
    if (!isVersionedRemote(remote))
      throw new Error('expected a versioned remote');
    const health = new ServerHealth(() => true);
    const store = health.observe(Object.assign(remote, history));
    expect(hasHistory(store)).toBe(true);
    if (!hasHistory(store)) return;
    await expect(store.history('n')).resolves.toBe(page);
    await expect(store.listDeleted()).resolves.toEqual(['gone']);
    expect(health.accessFor('read')).toBe(ACCESS.ok);
    await expect(store.restore('n', 1)).rejects.toMatchObject({ status: 403 });
    expect(health.accessFor('write')).toBe(ACCESS.readOnly);
  });

  it('does not invent history calls for a remote without them', () => {
    const { store } = observed();
    expect(hasHistory(store)).toBe(false);
  });
});
