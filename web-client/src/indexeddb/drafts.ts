/**
 * Unsaved edits kept in the browser database (the `drafts` store), so that a draft survives a reload
 * or a closed tab: one record per config name, the draft with the version it started from. A draft is
 * the page's, not a write: nothing here is sent to the server or changes a local copy.
 */
import type { LinkConfig } from '@linkconfig/shared';
import type { ConfigDb } from './config-db.js';
import type { DraftRecord } from './sync-records.js';

/** The drafts of one database. */
export interface Drafts {
  /** Keeps `draft` of `name`, started from `base`, in place of any earlier one. */
  keep(name: string, draft: LinkConfig, base: LinkConfig | null): Promise<void>;
  /**
   * Moves the version the kept draft of `name` started from to `base` (the edit settled on a newer
   * version); nothing when no draft of `name` is kept.
   */
  rebase(name: string, base: LinkConfig): Promise<void>;
  /** The kept draft of `name`, or `null`. */
  get(name: string): Promise<DraftRecord | null>;
  /** Forgets the draft of `name` (saved, reverted, or given up). */
  drop(name: string): Promise<void>;
}

/** Creates the drafts over a config database. */
export function createDrafts(db: ConfigDb): Drafts {
  return {
    keep: (name, draft, base) =>
      db.run(`keep the unsaved edits of "${name}"`, async (d) => {
        await d.put('drafts', {
          name,
          draft,
          base,
          keptAt: new Date().toISOString(),
        });
      }),
    rebase: (name, base) =>
      db.run(`move the base of the unsaved edits of "${name}"`, async (d) => {
        const tx = d.transaction('drafts', 'readwrite');
        const kept = await tx.store.get(name);
        if (kept !== undefined) await tx.store.put({ ...kept, base });
        await tx.done;
      }),
    get: (name) =>
      db.run(
        `read the unsaved edits of "${name}"`,
        async (d) => (await d.get('drafts', name)) ?? null,
      ),
    drop: (name) =>
      db.run(`forget the unsaved edits of "${name}"`, (d) =>
        d.delete('drafts', name),
      ),
  };
}
