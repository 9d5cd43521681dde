/**
 * @module links
 * Rules about links as a set: when two URLs are one page (duplicates, import), and finding duplicates.
 */
export { isTrackingParameter, normalizeUrl } from './url-identity.js';
export { findDuplicates, linksWithUrl } from './find-duplicates.js';
export type { DuplicateGroup, DuplicateMember } from './find-duplicates.js';
