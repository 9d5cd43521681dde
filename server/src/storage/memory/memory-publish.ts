import { compareNames } from '@linkconfig/shared';
import type {
  PublishEvent,
  PublishStore,
  StoredPublish,
} from '../publish-store.js';

/** Publish records in process memory; `open` throws once the repository is closed. */
export function createMemoryPublish(open: () => void): PublishStore {
  const records = new Map<string, StoredPublish>();
  const events: PublishEvent[] = [];
  const append = (event: Omit<PublishEvent, 'id'>): PublishEvent => {
    const logged = { ...event, id: events.length + 1 };
    events.push(logged);
    return logged;
  };
  return {
    get: async (name) => {
      open();
      return records.get(name) ?? null;
    },
    version: async (name) => {
      open();
      return records.get(name)?.version ?? null;
    },
    versions: async () => {
      open();
      return [...records.values()]
        .map(({ name, version }) => ({ name, version }))
        .sort((a, b) => compareNames(a.name, b.name));
    },
    set: async (record, requestId) => {
      open();
      records.set(record.name, record);
      return append({
        name: record.name,
        op: 'publish',
        rev: record.rev,
        at: record.publishedAt,
        by: record.publishedBy,
        requestId: requestId ?? null,
      });
    },
    remove: async (name, origin) => {
      open();
      const record = records.get(name);
      if (record === undefined) return null;
      records.delete(name);
      return append({
        name,
        op: 'unpublish',
        rev: record.rev,
        at: origin.at,
        by: origin.by,
        requestId: origin.requestId ?? null,
      });
    },
    events: async (afterId, limit) => {
      open();
      return events.filter((e) => e.id > afterId).slice(0, limit);
    },
    head: async () => {
      open();
      return events.length;
    },
  };
}
