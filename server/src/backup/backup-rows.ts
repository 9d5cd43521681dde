/**
 * The records of a backup file and the rows of a repository, one mapping each way: what `backup` writes
 * from a snapshot item and what `restore` gives back to the repository.
 */
import type {
  BackupConfig,
  BackupKey,
  BackupPublish,
  BackupRecord,
  BackupRevision,
} from '@linkconfig/shared';
import type {
  RevisionRecord,
  SnapshotItem,
  StoredConfig,
} from '../storage/config-repository.js';
import { etagOf } from '../storage/etag.js';
import type { StoredKey } from '../storage/key-repository.js';
import type { StoredPublish } from '../storage/publish-store.js';

/** The record of one snapshot item. */
export function recordOf(item: SnapshotItem): BackupRecord {
  switch (item.kind) {
    case 'config': {
      const { name, json, createdAt, updatedAt, version } = item.config;
      return { kind: 'config', name, json, createdAt, updatedAt, version };
    }
    case 'revision': {
      const { meta, content } = item.revision;
      return {
        kind: 'revision',
        name: meta.name,
        rev: meta.rev,
        id: meta.id,
        op: meta.op,
        at: meta.at,
        by: meta.by,
        requestId: meta.requestId,
        size: meta.size,
        content:
          content === null
            ? null
            : {
                base: content.base,
                head: content.head,
                tail: content.tail,
                chain: content.chain,
                data: Buffer.from(content.data).toString('base64'),
              },
      };
    }
    case 'key':
      return { kind: 'key', ...item.key, configs: [...item.key.configs] };
    case 'publish': {
      const { origins, publishedBy } = item.publish;
      return {
        kind: 'publish',
        ...item.publish,
        origins: origins === null ? null : [...origins],
        publishedBy: publishedBy === null ? null : { ...publishedBy },
      };
    }
  }
}

/** A config record (of a version 2 file, which holds `version`) as the stored row. */
export const configOf = (
  record: BackupConfig & { version: number },
): StoredConfig => ({
  name: record.name,
  json: record.json,
  createdAt: record.createdAt,
  updatedAt: record.updatedAt,
  version: record.version,
});

/** A revision record as the stored revision (its ETag follows from its id and time, as every ETag). */
export function revisionOf(record: BackupRevision): RevisionRecord {
  const { name, rev, id, op, at, by, requestId, size, content } = record;
  return {
    meta: {
      name,
      rev,
      id,
      op,
      at,
      by,
      requestId,
      size,
      etag: op === 'delete' ? null : etagOf({ version: id, updatedAt: at }),
    },
    content:
      content === null
        ? null
        : { ...content, data: Buffer.from(content.data, 'base64') },
  };
}

/** A key record as the stored key. */
export function keyOf(record: BackupKey): StoredKey {
  const { kind: _kind, ...key } = record;
  return key;
}

/** A publish record of a file as the stored record. */
export function publishOf(record: BackupPublish): StoredPublish {
  const { kind: _kind, ...stored } = record;
  return stored;
}
