/** The state of the Duplicates section and the link form's "this URL exists" warning (duplicates-actions.ts). */
import type {
  DuplicateGroup,
  LinkConfig,
  LinkMergeSide,
} from '@linkconfig/shared';

/** The merge being prepared: which link stays, which goes, and the side picked per differing field. */
export interface MergeDraft {
  /** The config of both links. */
  name: string;
  keep: string;
  remove: string;
  picks: Record<string, LinkMergeSide>;
}

/** The merge last applied, which Undo takes back in one step. */
export interface AppliedMerge {
  /** The config it was applied to. */
  name: string;
  /** The config as it was before: Undo saves it again. */
  before: LinkConfig;
  /** What it did, in words. */
  summary: string;
  /** The expressions that named the removed id and now name the kept one. */
  references: string[];
}

/** Duplicates across the configs this browser could read, when asked for. */
export interface AcrossConfigs {
  /** The config open when they were read. */
  name: string;
  /** Groups with members in more than one config. */
  groups: DuplicateGroup[];
  /** How many configs were read. */
  read: number;
  /** Configs left out: more than the page reads at once, or not readable now. */
  skipped: string[];
}

export interface DuplicatesState {
  /** The section is unfolded (its groups are worked out only then). */
  shown: boolean;
  merge: MergeDraft | null;
  /** Why the merge cannot run now. */
  problem: string | null;
  applied: AppliedMerge | null;
  /** Duplicates across configs: null until asked for; `'reading'` while the configs are read. */
  across: AcrossConfigs | 'reading' | null;
  /** The URL last typed in the link form (after a pause) and the links of the draft that have it. */
  urlWarning: { url: string; ids: string[] } | null;
}

export function initialDuplicates(): DuplicatesState {
  return {
    shown: false,
    merge: null,
    problem: null,
    applied: null,
    across: null,
    urlWarning: null,
  };
}

/** The Menu order section (order-actions.ts). */
export interface OrderState {
  /** The section is unfolded. */
  shown: boolean;
  /** How many rows are drawn (more on request). */
  limit: number;
  /** The link being dragged. */
  dragging: string | null;
}

/** Rows of the Menu order section drawn at first, and added by each "Show more". */
export const ORDER_PAGE = 100;

export function initialOrder(): OrderState {
  return { shown: false, limit: ORDER_PAGE, dragging: null };
}
