/**
 * Reads CSV whose header row names the columns (papaparse does the quoting rules: quoted commas, quotes
 * and line breaks inside a field). Known columns, in any order and case: `url`, `label`, `tags` (separated
 * by commas, or by spaces when there is no comma), `description`, `id`; a few common synonyms are read
 * too (`title`, `name`, `href`, `link`, `notes`). Other columns are ignored.
 */
import Papa from 'papaparse';
import type {
  ImportCandidate,
  ReadImportResult,
  SkippedLink,
} from '../schemas/index.js';
import { sourceLines } from './source-lines.js';

type Column = 'url' | 'label' | 'tags' | 'description' | 'id';

const COLUMN_NAMES: Readonly<Record<string, Column>> = {
  url: 'url',
  href: 'url',
  link: 'url',
  address: 'url',
  label: 'label',
  title: 'label',
  name: 'label',
  tags: 'tags',
  tag: 'tags',
  keywords: 'tags',
  description: 'description',
  notes: 'description',
  note: 'description',
  excerpt: 'description',
  id: 'id',
};

/** A cell that an export protected from spreadsheets: `'` before `=`, `+`, `-`, `@`, tab or CR. */
const FORMULA_GUARD = /^'[=+\-@\t\r]/;

/** Splits a tags cell: by commas when it has one, else by whitespace. */
export function splitTags(cell: string): string[] {
  const parts = cell.includes(',') ? cell.split(',') : cell.split(/\s+/);
  return parts.map((tag) => tag.trim()).filter((tag) => tag !== '');
}

/** Reads CSV text; fails as a whole only when the header row names no `url` column. */
export function readCsv(input: string): ReadImportResult {
  const text = input.startsWith('\uFEFF') ? input.slice(1) : input;
  const positionAt = sourceLines(text);
  // Rows one at a time: papaparse says where each row ends, so each starts where the one before ended.
  const rows: { cells: string[]; start: number; errors: string[] }[] = [];
  let cursor = 0;
  Papa.parse<string[]>(text, {
    skipEmptyLines: 'greedy',
    step: (result) => {
      let start = cursor;
      while (start < text.length && /\s/.test(text[start] ?? '')) start++;
      rows.push({
        cells: result.data,
        start,
        errors: result.errors.map((error) => error.message),
      });
      cursor = result.meta.cursor;
    },
  });
  const header = rows[0]?.cells;
  if (header === undefined)
    return { ok: false, error: 'the CSV file is empty' };
  const columns = new Map<Column, number>();
  header.forEach((name, index) => {
    const column = COLUMN_NAMES[name.trim().toLowerCase()];
    if (column !== undefined && !columns.has(column))
      columns.set(column, index);
  });
  if (!columns.has('url')) {
    return {
      ok: false,
      error:
        'the first row of the CSV file must name its columns, one of them "url" (also: label, tags, description, id)',
    };
  }
  const candidates: ImportCandidate[] = [];
  const skipped: SkippedLink[] = [];
  const cell = (row: string[], column: Column): string | undefined => {
    const index = columns.get(column);
    const value = index === undefined ? undefined : row[index]?.trim();
    if (value === '') return undefined;
    // The `'` an export puts before what a spreadsheet would run as a formula (write-formats.ts).
    return value !== undefined && FORMULA_GUARD.test(value)
      ? value.slice(1)
      : value;
  };
  for (const { cells, start, errors } of rows.slice(1)) {
    const position = { line: positionAt(start).line };
    const url = cell(cells, 'url');
    if (errors.length > 0) {
      skipped.push({
        position,
        ...(url === undefined ? {} : { url }),
        reason: `broken CSV row: ${errors.join('; ')}`,
      });
      continue;
    }
    if (url === undefined) {
      skipped.push({ position, reason: 'the row has no url' });
      continue;
    }
    const label = cell(cells, 'label');
    const description = cell(cells, 'description');
    const id = cell(cells, 'id');
    candidates.push({
      url,
      ...(label === undefined ? {} : { label }),
      tags: splitTags(cell(cells, 'tags') ?? ''),
      folders: [],
      ...(description === undefined ? {} : { description }),
      ...(id === undefined ? {} : { id }),
      position,
    });
  }
  return { ok: true, parsed: { format: 'csv', candidates, skipped } };
}
