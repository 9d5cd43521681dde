/**
 * @module transfer
 * Import and export (docs/import-export.md): readers of bookmark HTML, CSV and JSON, the import plan that
 * turns what they read into a config and a report, and the writers of the same formats. Pure: no I/O.
 */
export { planImport } from './plan-import.js';
export { splitByTopFolder } from './split-folders.js';
export type { FolderImport } from './split-folders.js';
export type { ImportPlan, PlanOptions } from './plan-import.js';
export {
  MAX_IMPORT_BYTES,
  formatOfFileName,
  importSizeProblem,
  readImport,
  sniffFormat,
} from './read-import.js';
export type { ReadImportOptions } from './read-import.js';
export { decodeImportBytes } from './decode-import.js';
export { exportLosses } from './export-losses.js';
export type { DecodedImport } from './decode-import.js';
export { writeBookmarksHtml, writeCsv, writeJson } from './write-formats.js';
export type { BookmarksHtmlOptions } from './write-formats.js';
