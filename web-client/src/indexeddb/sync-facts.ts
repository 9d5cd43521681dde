/**
 * The per-name facts of the sync state (see {@link NameSync}), read from its stored records: the one
 * place that says which record field becomes which fact.
 */
import type { NameSync, SyncChange } from './outbox-types.js';
import type {
  ConflictRecord,
  DeadLetter,
  OutboxEntry,
} from './sync-records.js';

/** The facts of one name from its records (each `undefined` when absent). */
export function factsOf(records: {
  entry?: OutboxEntry;
  letter?: DeadLetter;
  conflict?: ConflictRecord;
}): NameSync {
  const facts: NameSync = {};
  if (records.entry) facts.pending = pendingFact(records.entry);
  if (records.letter) facts.deadLetter = deadLetterFact(records.letter);
  if (records.conflict) facts.conflict = conflictFact(records.conflict);
  return facts;
}

export const pendingFact = (entry: OutboxEntry) => ({
  op: entry.op,
  since: entry.queuedAt,
});

export const deadLetterFact = (letter: DeadLetter) => ({
  status: letter.status,
  error: letter.error,
  since: letter.failedAt,
});

export const conflictFact = (record: ConflictRecord) => ({
  since: record.detectedAt,
});

/** Whether `facts` says nothing waits. */
export const settled = (facts: NameSync): boolean =>
  facts.pending === undefined &&
  facts.deadLetter === undefined &&
  facts.conflict === undefined;

/** The facts of every record of one kind, as a change that replaces that kind's facts. */
export function factsOfAll<R extends { name: string }>(
  records: readonly R[],
  fact: keyof NameSync,
  of: (record: R) => NameSync[keyof NameSync],
): SyncChange {
  return {
    kind: 'all',
    fact,
    facts: new Map(records.map((record) => [record.name, of(record)])),
  };
}
