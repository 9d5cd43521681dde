/** The one entry of the readers: a size limit, then the format (named, by file name, or by a look at the text). */
import type {
  ImportCandidate,
  ImportNote,
  ReadImportResult,
  SkippedLink,
  TransferFormat,
} from '../schemas/index.js';
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
  /** Lines whose bytes were not UTF-8 when the file was decoded (`decodeImportBytes`). */
  readonly malformedLines?: readonly number[] | undefined;
}

/**
 * What bytes that were not UTF-8 did to a read file: each such line is noted, and a link whose URL holds
 * the replacement character is skipped (its URL is not the one the file meant).
 */
function reportMalformed(
  result: ReadImportResult,
  lines: readonly number[],
): ReadImportResult {
  if (!result.ok || lines.length === 0) return result;
  const { parsed } = result;
  const candidates: ImportCandidate[] = [];
  const skipped: SkippedLink[] = [...parsed.skipped];
  for (const candidate of parsed.candidates) {
    if (candidate.url.includes('\uFFFD')) {
      skipped.push({
        position: candidate.position,
        url: candidate.url,
        reason:
          'the URL held bytes that are not UTF-8 (shown as \uFFFD), so it is not the address the file meant',
      });
    } else candidates.push(candidate);
  }
  const notes: ImportNote[] = [
    ...(parsed.notes ?? []),
    ...lines.map((line) => ({
      position: { line },
      note: 'bytes that are not UTF-8 were read as \uFFFD (the file is not saved as UTF-8)',
    })),
  ];
  return { ok: true, parsed: { ...parsed, candidates, skipped, notes } };
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
  const read =
    format === 'html'
      ? readBookmarksHtml(text)
      : format === 'csv'
        ? readCsv(text)
        : readJson(text);
  return reportMalformed(read, options.malformedLines ?? []);
}
