/** The state of the History panel and of the "Recently deleted" list (view-history.ts, history-actions.ts). */
import type {
  ConfigComparison,
  HistoryEntry,
  LinkConfig,
  RevisionOutput,
} from '@linkconfig/shared';

/**
 * One revision shown read-only: what it changed against the revision before it, and what differs from
 * the newest version (what a restore would change). Both compared in the page (`compareConfigs`), from
 * the revisions it loaded.
 */
export interface ShownRevision {
  rev: number;
  revision: RevisionOutput;
  /**
   * The revision before `rev` and what `rev` changed against it; null for the first revision, or
   * when the one before holds no content (a deletion, or pruned).
   */
  previous: { rev: number; changes: ConfigComparison } | null;
  /** The newest version (to show a changed field's value now); null when `rev` is the newest. */
  current: LinkConfig | null;
  /** From `rev` to the newest; null when `rev` is the newest. */
  diff: ConfigComparison | null;
}

export interface HistoryState {
  /** The config whose history the panel shows; null: the panel is closed. */
  name: string | null;
  loading: boolean;
  revisions: HistoryEntry[];
  /** `before` of the next page, or null on the last one. */
  next: number | null;
  /** Why nothing (or not everything) is shown: offline, not on the server yet, a failure. */
  problem: string | null;
  shown: ShownRevision | null;
  /** A restore is running. */
  busy: boolean;
  /** Names deleted and still restorable; null until asked for. */
  deleted: string[] | null;
  deletedProblem: string | null;
  deletedLoading: boolean;
}

export function initialHistory(): HistoryState {
  return {
    name: null,
    loading: false,
    revisions: [],
    next: null,
    problem: null,
    shown: null,
    busy: false,
    deleted: null,
    deletedProblem: null,
    deletedLoading: false,
  };
}
