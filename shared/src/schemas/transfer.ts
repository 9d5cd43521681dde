import { z } from 'zod';

/**
 * Shapes of import and export (docs/import-export.md): the formats, how an import meets an existing
 * config, and the report an import answers with before (dry run, preview) and after it is written.
 */

/** The file formats the converters read and write. */
export const TRANSFER_FORMATS = ['html', 'csv', 'json'] as const;
export const TransferFormatSchema = z.enum(TRANSFER_FORMATS);
export type TransferFormat = z.infer<typeof TransferFormatSchema>;

/** `merge` keeps the config's links and adds to them; `replace` makes the imported links the whole `allLinks`. */
export const ImportModeSchema = z.enum(['merge', 'replace']);
export type ImportMode = z.infer<typeof ImportModeSchema>;

/** Where in the imported file something was found: a 1-based line, and for HTML the column. */
export const SourcePositionSchema = z.object({
  line: z.number().int().min(1),
  column: z.number().int().min(1).optional(),
});
export type SourcePosition = z.infer<typeof SourcePositionSchema>;

/** One link as a reader found it, before ids, tags and the existing config are considered. */
export const ImportCandidateSchema = z.object({
  url: z.string(),
  label: z.string().optional(),
  /** Tags as written in the file (not yet normalized). */
  tags: z.array(z.string()),
  /** Folder names from the outermost down (bookmark HTML only). */
  folders: z.array(z.string()),
  description: z.string().optional(),
  /** An id the file asked for (CSV `id` column, JSON keys). */
  id: z.string().optional(),
  /** Other fields the file carried (JSON), kept as they are. */
  extra: z.record(z.string(), z.unknown()).optional(),
  meta: z.record(z.string(), z.unknown()).optional(),
  position: SourcePositionSchema,
});
export type ImportCandidate = z.infer<typeof ImportCandidateSchema>;

/** A link that was not imported, and why. */
export const SkippedLinkSchema = z.object({
  position: SourcePositionSchema,
  url: z.string().optional(),
  reason: z.string(),
});
export type SkippedLink = z.infer<typeof SkippedLinkSchema>;

/**
 * Something an import changed on the way or could not keep, though the link itself was read: a date
 * out of any date's range (not kept), bytes that were not UTF-8 (replaced by U+FFFD).
 */
export const ImportNoteSchema = z.object({
  position: SourcePositionSchema,
  url: z.string().optional(),
  note: z.string(),
});
export type ImportNote = z.infer<typeof ImportNoteSchema>;

/** What an import did, or would do (a dry run or the page's preview). */
export const ImportReportSchema = z.object({
  format: TransferFormatSchema,
  mode: ImportModeSchema,
  /** Ids of links that are new in the config. */
  added: z.array(z.string()),
  /**
   * Links whose URL was already there: the id merged into, and the URL. `inFile` when that link is one
   * this import adds (the file repeats a URL), not one the config already had.
   */
  merged: z.array(
    z.object({
      id: z.string(),
      url: z.string(),
      inFile: z.boolean().optional(),
    }),
  ),
  skipped: z.array(SkippedLinkSchema),
  /** What was read but changed or left out on the way, by position. */
  notes: z.array(ImportNoteSchema),
  /** Tags that no link of the config had before. */
  tagsCreated: z.array(z.string()),
  /** The rule imported tags were normalized by, in words. */
  tagRule: z.string(),
  /** Folder and tag names of the file that the tag rule leaves empty (such as `日本語`): no tag is made. */
  tagsDropped: z.array(z.string()).optional(),
});
export type ImportReport = z.infer<typeof ImportReportSchema>;

/** What a reader made of a file: the links it found, those it could not read, and (JSON) other sections. */
export const ParsedImportSchema = z.object({
  format: TransferFormatSchema,
  candidates: z.array(ImportCandidateSchema),
  skipped: z.array(SkippedLinkSchema),
  /** What the reader changed or left out of links it read (absent: nothing). */
  notes: z.array(ImportNoteSchema).optional(),
  /** A JSON config's other top-level sections (`macros`, `settings`, …), in file order. */
  sections: z.record(z.string(), z.unknown()).optional(),
});
export type ParsedImport = z.infer<typeof ParsedImportSchema>;

/** A reader's answer: what it read, or why the whole file cannot be imported. */
export type ReadImportResult =
  | { readonly ok: true; readonly parsed: ParsedImport }
  | { readonly ok: false; readonly error: string };
