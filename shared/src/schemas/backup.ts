import { z } from 'zod';
import { ConfigNameSchema } from './api.js';
import { TimestampSchema } from './link-config.js';

/**
 * The backup file of a whole database (docs/import-export.md#backups): JSON lines, each a typed record.
 * A header first, then the data records, then an end record with the count of each kind, so a file cut
 * short is never restored as if it were whole. Later tables become more record kinds (and a higher
 * `version` when an older reader must refuse the file).
 */
export const BACKUP_FORMAT = 'linkconfig-backup';
export const BACKUP_VERSION = 1;

export const BackupHeaderSchema = z.object({
  kind: z.literal('header'),
  format: z.literal(BACKUP_FORMAT),
  version: z.number().int().min(1),
  createdAt: TimestampSchema,
  /** The kind of database it was read from (`sqlite`, `postgres`). */
  source: z.string(),
});
export type BackupHeader = z.infer<typeof BackupHeaderSchema>;

/** One config: its JSON text exactly as stored (key order kept), and its timestamps. */
export const BackupConfigSchema = z.object({
  kind: z.literal('config'),
  name: ConfigNameSchema,
  json: z.string(),
  createdAt: TimestampSchema,
  updatedAt: TimestampSchema,
});
export type BackupConfig = z.infer<typeof BackupConfigSchema>;

export const BackupEndSchema = z.object({
  kind: z.literal('end'),
  /** How many records of each data kind the file holds. */
  counts: z.record(z.string(), z.number().int().min(0)),
});
export type BackupEnd = z.infer<typeof BackupEndSchema>;

export const BackupRecordSchema = z.discriminatedUnion('kind', [
  BackupHeaderSchema,
  BackupConfigSchema,
  BackupEndSchema,
]);
export type BackupRecord = z.infer<typeof BackupRecordSchema>;
