/** The state of the Tags section of the open config (views/tags-view.ts, actions/tags-actions.ts). */
import type { LinkConfig, TagRenamePreview } from '@linkconfig/shared';

/** The rename last applied, which Undo takes back in one step. */
export interface AppliedRename {
  /** The config it was applied to. */
  name: string;
  /** The config as it was before: Undo saves it again. */
  before: LinkConfig;
  /** What it did, in words. */
  summary: string;
}

export interface TagsState {
  /** The section is unfolded (its table is worked out only then). */
  shown: boolean;
  /** The tags chosen to rename or merge, in the order chosen. */
  chosen: string[];
  /** The tag they become. */
  to: string;
  /** The preview of renaming `chosen` to `to` in the open draft; null until asked for. */
  preview: TagRenamePreview | null;
  /** Why the rename cannot be previewed or applied now. */
  problem: string | null;
  /** Main-thread milliseconds the last preview took (shown, and read by the tests). */
  previewMs: number | null;
  applied: AppliedRename | null;
}

export function initialTags(): TagsState {
  return {
    shown: false,
    chosen: [],
    to: '',
    preview: null,
    problem: null,
    previewMs: null,
    applied: null,
  };
}
