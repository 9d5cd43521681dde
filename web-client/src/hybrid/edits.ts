/**
 * The edits a page makes through a hybrid store, and the version each started from (its base). The
 * store alone keeps the base: it is recorded when an edit starts, kept with the draft in the browser
 * database so that it survives a reload, and moved when the edit settles on another version (a save,
 * a clean merge, a newer version taken in). The page asks for it where it compares, and merges
 * through {@link EditStore.mergeIntoEdit}; it keeps no copy, so it cannot hold one the store does not.
 */
import { threeWayMerge } from '@linkconfig/shared';
import type { LinkConfig, MergeResult } from '@linkconfig/shared';
import type { Drafts } from '../indexeddb/drafts.js';

/** Unsaved edits kept in the browser, with the version they started from. */
export interface KeptDraft {
  draft: LinkConfig;
  /** `null` for a config this browser did not hold when the draft was kept. */
  base: LinkConfig | null;
}

/**
 * The bases of the edits in progress, in memory, so that reading one is synchronous. A page that
 * makes its store anew (another token) passes the same `EditBases` to the new store, so its open edit
 * keeps its base (`HybridStoreOptions.editBases`).
 */
export class EditBases {
  private readonly bases = new Map<string, LinkConfig>();

  /** The base of the edit of `name`, or `undefined` when no edit of it started. */
  get(name: string): LinkConfig | undefined {
    return this.bases.get(name);
  }

  /** Records a copy of `base` as the base of the edit of `name` (so that no caller can change it). */
  set(name: string, base: LinkConfig): void {
    this.bases.set(name, structuredClone(base));
  }

  /** Forgets the edit of `name`. */
  delete(name: string): void {
    this.bases.delete(name);
  }
}

/** The edits of a hybrid store. */
export interface EditStore {
  /**
   * Starts an edit of `name` from `shown`, the version the editor shows. Unsaved edits of it kept in
   * this browser (`keepDraft`, before a reload) come back, and the edit then continues from the version
   * they started from: when `shown` differs from it, merge `shown` in with `mergeIntoEdit`.
   */
  startEdit(name: string, shown: LinkConfig): Promise<KeptDraft | null>;
  /**
   * The version the edit of `name` started from, or moved to since; `undefined` when no edit of `name`
   * started. Synchronous: the store keeps it in memory beside the kept draft.
   */
  editBase(name: string): LinkConfig | undefined;
  /**
   * Merges `incoming` (a newer version from elsewhere) into `draft` over the edit's base, with the
   * shared three-way merge. A clean merge moves the base to `incoming`; with conflicts it stays until
   * they are decided and the edit settles (`settleEdit`).
   */
  mergeIntoEdit(
    name: string,
    draft: LinkConfig,
    incoming: LinkConfig,
  ): MergeResult<LinkConfig>;
  /**
   * The edit of `name` now starts from `version`: shown in place of the draft, or taken in after its
   * conflicts with the draft were decided. Moves the kept draft's base too; resolves once that is
   * stored and never rejects (a failure of the browser's storage loses only the kept copy's base).
   */
  settleEdit(name: string, version: LinkConfig): Promise<void>;
  /**
   * Keeps unsaved edits of `name` in the browser (not sent, no local copy changed) with the edit's base,
   * so that they survive a reload. Rejects when no edit of `name` started.
   */
  keepDraft(name: string, draft: LinkConfig): Promise<void>;
  /** The unsaved edits kept for `name` and the version they started from, or `null`. */
  draftOf(name: string): Promise<KeptDraft | null>;
  /** Forgets the unsaved edits kept for `name`. */
  dropDraft(name: string): Promise<void>;
}

/** The store's side of the edits: what its own writes tell them. */
export interface Edits extends EditStore {
  /**
   * `config` of `name` was saved in this browser: an edit of it now starts from that. The base moves at
   * once, just before the save resolves, so that no change heard meanwhile meets a base the page's
   * draft is not on; the kept draft follows in the background.
   */
  saved(name: string, config: LinkConfig): void;
  /** `name` was removed in this browser: its edit ends. */
  removed(name: string): void;
}

/** Creates the edits over the kept drafts and the bases in memory. */
export function createEdits(drafts: Drafts, bases: EditBases): Edits {
  const move = async (name: string, base: LinkConfig): Promise<void> => {
    bases.set(name, base);
    await drafts.rebase(name, base).catch(() => undefined);
  };
  return {
    async startEdit(name, shown) {
      bases.set(name, shown);
      const started = bases.get(name);
      const kept = await drafts.get(name);
      // Another start or a settlement came first: that one holds.
      if (kept === null || bases.get(name) !== started) return null;
      bases.set(name, kept.base ?? shown);
      return { draft: kept.draft, base: kept.base };
    },
    editBase: (name) => bases.get(name),
    mergeIntoEdit(name, draft, incoming) {
      const result = threeWayMerge<LinkConfig>(
        bases.get(name) ?? null,
        draft,
        incoming,
      );
      if (result.merged !== null && result.conflicts.length === 0)
        void move(name, incoming);
      return result;
    },
    settleEdit: (name, version) => move(name, version),
    keepDraft(name, draft) {
      const base = bases.get(name);
      if (base === undefined)
        return Promise.reject(
          new Error(`No edit of "${name}" started: call startEdit first`),
        );
      return drafts.keep(name, draft, base);
    },
    async draftOf(name) {
      const kept = await drafts.get(name);
      return kept === null ? null : { draft: kept.draft, base: kept.base };
    },
    dropDraft: (name) => drafts.drop(name),
    saved(name, config) {
      if (bases.get(name) !== undefined) void move(name, config);
    },
    removed: (name) => bases.delete(name),
  };
}
