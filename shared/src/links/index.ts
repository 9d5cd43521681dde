/**
 * @module links
 * The rules for a link's names: how tags are normalized (`tags.ts`) and how an id is made from a
 * label (`ids.ts`). The import, the page's link form and tag renaming all use these; and when two URLs are
 * one page (`url-identity.ts`: duplicates, import), two links merged into one (`merge-links.ts`), and the
 * order of the links (`link-order.ts`).
 * Pure: no I/O.
 */
export {
  TAG_RULE,
  droppedTags,
  normalizeTag,
  normalizeTags,
  tagsFromText,
} from './tags.js';
export {
  FALLBACK_ID,
  idBase,
  idForLabel,
  isUsableId,
  uniqueId,
} from './ids.js';
export { toWordName } from './word-name.js';
export { isTrackingParameter, normalizeUrl } from './url-identity.js';
export { findDuplicates, linksWithUrl } from './find-duplicates.js';
export type { DuplicateGroup, DuplicateMember } from './find-duplicates.js';
export { differingFields, planLinkMerge } from './merge-links.js';
export type { LinkMergePlan, LinkMergeSide } from './merge-links.js';
export { isMovableId, movedOrder, withLinkOrder } from './link-order.js';
export type { LinkMove } from './link-order.js';
