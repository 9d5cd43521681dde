/**
 * The state of bulk edits, the dense table and the keyboard of the links list (views/view-link-bulk.ts,
 * views/view-links.ts, actions/bulk-actions.ts): the selection, the row the keyboard points at, the
 * fields of the bulk bar, the cell being edited in place, and the last bulk action for Undo.
 */
import type { LinkConfig } from '@linkconfig/shared';
import { NO_SELECTION } from '../model/link-selection.js';
import type { Selection } from '../model/link-selection.js';

/** One config a bulk action wrote: as it was before and right after, for Undo. */
export interface BulkWrite {
  name: string;
  before: LinkConfig;
  after: LinkConfig;
}

/** The bulk action last applied, which Undo takes back in one step (one save per config it wrote). */
export interface AppliedBulk {
  /** The config that was open. */
  name: string;
  writes: BulkWrite[];
  /** What it did, in words. */
  summary: string;
}

/** A table cell being edited in place. */
export interface CellEdit {
  id: string;
  field: 'label' | 'url' | 'tags';
  value: string;
  problem: string | null;
}

export interface BulkState {
  selection: Selection;
  /** The row `j`/`k` point at (its id). */
  cursor: string | null;
  /** The tags field of the bulk bar (add or remove). */
  tags: string;
  /** The field name and value of "Set a field". */
  field: string;
  value: string;
  /** The config to move or copy to. */
  target: string;
  /** Why the last bulk action could not run. */
  problem: string | null;
  /** A bulk action is being saved. */
  busy: boolean;
  applied: AppliedBulk | null;
  /** Main-thread milliseconds the last bulk action took to work out and put in the draft. */
  lastMs: number | null;
  cell: CellEdit | null;
  /** The keyboard shortcuts dialog is open. */
  help: boolean;
}

export function initialBulk(): BulkState {
  return {
    selection: NO_SELECTION,
    cursor: null,
    tags: '',
    field: 'description',
    value: '',
    target: '',
    problem: null,
    busy: false,
    applied: null,
    lastMs: null,
    cell: null,
    help: false,
  };
}
