import { describe, expect, it } from 'vitest';
import type { StoredConfig } from './config-repository.js';
import { putConfig, removeConfig, updateConfig } from './config-write.js';
import type { StoredStamp, WriteTransaction } from './config-write.js';
import { etagOf } from './etag.js';

/** A transaction over one stored stamp that records which steps the algorithm took, in order. */
const recording = (
  stored: StoredStamp | null,
): { tx: WriteTransaction; steps: string[] } => {
  const steps: string[] = [];
  let revision = 41;
  const tx: WriteTransaction = {
    readCurrent: (name) => {
      steps.push(`read ${name}`);
      return stored;
    },
    nextRevision: () => {
      steps.push('revision');
      return ++revision;
    },
    writeRow: (row: StoredConfig, created) => {
      steps.push(`row ${row.name} v${row.version} created=${created}`);
    },
    deleteRow: (name) => {
      steps.push(`delete ${name}`);
    },
    appendEvent: (event) => {
      steps.push(`event ${event.type} #${event.id}`);
    },
    readHistoryTip: (name) => {
      steps.push(`tip ${name}`);
      return stored === null
        ? null
        : {
            rev: 3,
            id: stored.version,
            op: 'put',
            base: 1,
            chain: 0,
            links: null,
          };
    },
    readCurrentJson: (name) => {
      steps.push(`text ${name}`);
      return '{"old":1}';
    },
    appendRevision: ({ meta, content }) => {
      steps.push(
        `revision ${meta.op} r${meta.rev} #${meta.id} ${content === null ? 'none' : content.base === meta.rev ? 'keyframe' : 'delta'}`,
      );
    },
  };
  return { tx, steps };
};

const stored: StoredStamp = {
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-02T00:00:00.000Z',
  version: 7,
};
const at = Date.parse('2026-01-03T00:00:00.000Z');
const now = (): Date => new Date(at);

describe('the write algorithm', () => {
  it('reads, takes a revision, writes the row, then appends its revision (the log)', () => {
    const { tx, steps } = recording(stored);
    const result = putConfig(tx, { name: 'n', json: '{}' }, { now });
    expect(steps).toEqual([
      'read n',
      'revision',
      'tip n',
      'text n',
      'row n v42 created=false',
      'revision put r4 #42 delta',
    ]);
    expect(result).toEqual({
      ok: true,
      createdAt: stored.createdAt,
      updatedAt: '2026-01-03T00:00:00.000Z',
      version: 42,
      etag: etagOf({ version: 42, updatedAt: '2026-01-03T00:00:00.000Z' }),
      created: false,
      rev: 4,
    });
  });

  it('makes the delta from the text the caller holds only when it is of the stored version', () => {
    const held = recording(stored);
    putConfig(
      held.tx,
      { name: 'n', json: '{}' },
      { now, heldText: { version: stored.version, json: '{"old":1}' } },
    );
    expect(held.steps).not.toContain('text n');
    expect(held.steps).toContain('revision put r4 #42 delta');
    const stale = recording(stored);
    putConfig(
      stale.tx,
      { name: 'n', json: '{}' },
      { now, heldText: { version: stored.version - 1, json: '{"v":0}' } },
    );
    expect(stale.steps).toContain('text n');
  });

  it('takes no revision and writes nothing when the preconditions fail', () => {
    const { tx, steps } = recording(stored);
    expect(
      putConfig(tx, { name: 'n', json: '{}' }, { ifNoneMatch: '*', now }),
    ).toEqual({ ok: false, currentEtag: etagOf(stored) });
    expect(removeConfig(tx, 'n', { ifMatch: ['"x"'], now })).toEqual({
      ok: false,
      currentEtag: etagOf(stored),
    });
    expect(steps).toEqual(['read n', 'read n']);
  });

  it('deletes a stored name under a new revision, and a missing one without any', () => {
    const existing = recording(stored);
    expect(removeConfig(existing.tx, 'n', { now })).toEqual({
      ok: true,
      removed: true,
    });
    expect(existing.steps).toEqual([
      'read n',
      'revision',
      'tip n',
      'delete n',
      'revision delete r4 #42 none',
    ]);
    const missing = recording(null);
    expect(removeConfig(missing.tx, 'n', { now })).toEqual({
      ok: true,
      removed: false,
    });
    expect(missing.steps).toEqual(['read n']);
  });

  it('decides an update from the stored text under the lock, reading it once', () => {
    const { tx, steps } = recording(stored);
    const seen: string[] = [];
    const result = updateConfig(
      tx,
      {
        name: 'n',
        decide: (current) => {
          seen.push(current?.json ?? 'none');
          return { json: '{"new":1}' };
        },
      },
      { now, op: 'patch' },
    );
    expect(seen).toEqual(['{"old":1}']);
    expect(steps).toEqual([
      'read n',
      'text n',
      'revision',
      'tip n',
      'row n v42 created=false',
      'revision patch r4 #42 keyframe',
    ]);
    expect(result.ok).toBe(true);
  });
});
