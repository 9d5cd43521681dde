/** The one entry of the readers: a size limit, then the format (named, by file name, or by a look at the text). */
import type { ReadImportResult, TransferFormat } from '../schemas/index.js';
import { readBookmarksHtml } from './read-bookmarks-html.js';
import { readCsv } from './read-csv.js';
import { readJson } from './read-json.js';

/** The largest file an import reads: 20 MiB (a 10,000-bookmark export is about 5 MB). */
export const MAX_IMPORT_BYTES = 20 * 1024 * 1024;

const megabytes = (bytes: number): string =>
  `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/** The refusal of a file of `bytes` bytes, or `null` when it is small enough. */
export function importSizeProblem(bytes: number): string | null {
  return bytes > MAX_IMPORT_BYTES
    ? `the file is ${megabytes(bytes)}; an import reads at most ${megabytes(MAX_IMPORT_BYTES)} (split it into smaller files)`
    : null;
}

/** The format a file name's extension names, or `null`. */
export function formatOfFileName(name: string): TransferFormat | null {
  const extension = /\.([a-z]+)$/i.exec(name)?.[1]?.toLowerCase();
  if (extension === 'html' || extension === 'htm') return 'html';
  if (extension === 'csv' || extension === 'tsv') return 'csv';
  if (extension === 'json') return 'json';
  return null;
}

/** The format the text looks like: JSON starts with `{`, bookmark files with their doctype or a `<`. */
export function sniffFormat(text: string): TransferFormat {
  const start = text.replace(/^\uFEFF/, '').trimStart();
  if (start.startsWith('{')) return 'json';
  if (start.startsWith('<')) return 'html';
  return 'csv';
}

/** Options of {@link readImport}. */
export interface ReadImportOptions {
  /** The format; else from `fileName`, else from the text. */
  readonly format?: TransferFormat | undefined;
  readonly fileName?: string | undefined;
}

/** Reads an import file's text into candidates, or says why the whole file cannot be imported. */
export function readImport(
  text: string,
  options: ReadImportOptions = {},
): ReadImportResult {
  // UTF-16 code units: at most the UTF-8 size of the file, at least a third of it.
  const tooBig = importSizeProblem(text.length);
  if (tooBig !== null) return { ok: false, error: tooBig };
  const format =
    options.format ??
    (options.fileName === undefined
      ? null
      : formatOfFileName(options.fileName)) ??
    sniffFormat(text);
  switch (format) {
    case 'html':
      return readBookmarksHtml(text);
    case 'csv':
      return readCsv(text);
    case 'json':
      return readJson(text);
  }
}
