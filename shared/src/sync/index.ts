export {
  applyMergePatch,
  createMergePatch,
  mergePatching,
} from './merge-patch.js';
export { changedPaths, threeWayMerge } from './three-way-merge.js';
export type { MergeResult } from './three-way-merge.js';
export {
  resolveConflicts,
  samePath,
  setAt,
  valueAt,
} from './resolve-conflicts.js';
export { sameKeyOrder } from './own-keys.js';
export { findLinkSpans, patchLinksText } from './link-text-patch.js';
export type { LinkSpans, TextPatchCounts } from './link-text-patch.js';
export { EDIT_MAX_CHARS, linkEditOfText } from './link-text-edit.js';
export type { LinkTextEdit, LinkTextTemplate } from './link-text-edit.js';
