import { z } from 'zod';
import { ConfigNameSchema } from './api.js';
import { AuthorSchema } from './author.js';
import { RevisionOpSchema } from './history.js';
import { CreateHookInputSchema, HookSchema } from './hooks.js';
import { AccessKeySchema, CreateKeyInputSchema } from './keys.js';
import { LinkHealthRecordSchema } from './link-health.js';
import { TimestampSchema } from './link-config.js';
import { PublishOriginsSchema } from './publish.js';

/**
 * The backup file of a whole database (docs/import-export.md#backups): JSON lines, each a typed record.
 * A header first, then the data records, then an end record with the count of each kind, so a file cut
 * short is never restored as if it were whole. Version 1 held configs only; version 2 adds each config's
 * history (`revision` records) and the access keys (`key` records), and the configs' versions; version
 * 3 adds what the link checker knows of each URL (`link` records); version 4 adds the webhooks (`hook`
 * records, without their signing secrets); version 5 adds the publish records (`publish` records, after
 * the configs and before the revisions they name).
 */
export const BACKUP_FORMAT = 'linkconfig-backup';
export const BACKUP_VERSION = 5;

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
  /** The change id of the write that stored it (version 2; its ETag follows from it and `updatedAt`). */
  version: z.number().int().min(1).optional(),
});
export type BackupConfig = z.infer<typeof BackupConfigSchema>;

/**
 * One revision of a config's history, as the database stores it: its facts, and its content as the
 * stored fields of `server/src/storage/log/revision-content.ts` (a keyframe, or a delta against the revision
 * before), `data` in base64; `null` for a delete. Kept as stored so a restore gives the same revisions,
 * byte for byte, at the size history has in the database.
 */
export const BackupRevisionSchema = z.object({
  kind: z.literal('revision'),
  name: ConfigNameSchema,
  rev: z.number().int().min(1),
  /** The database-wide change id of the write (the audit trail's order). */
  id: z.number().int().min(1),
  op: RevisionOpSchema,
  at: TimestampSchema,
  by: AuthorSchema.nullable(),
  requestId: z.string().nullable(),
  size: z.number().int().min(0).nullable(),
  content: z
    .object({
      base: z.number().int().min(1),
      head: z.number().int().min(0),
      tail: z.number().int().min(0),
      chain: z.number().int().min(0),
      data: z.base64(),
    })
    .nullable(),
});
export type BackupRevision = z.infer<typeof BackupRevisionSchema>;

/**
 * One publish record (docs/publishing.md): the revision `/published` serves for the name, with that
 * revision's text (kept in the record, so it outlives history's retention), the site origins, the option
 * that hides broken links, and who published it when. As stored, so a restored database serves the same.
 */
export const BackupPublishSchema = z.object({
  kind: z.literal('publish'),
  name: ConfigNameSchema,
  rev: z.number().int().min(1),
  /** The revision's change id: the version the config had when that revision was its head. */
  version: z.number().int().min(1),
  json: z.string(),
  createdAt: TimestampSchema,
  updatedAt: TimestampSchema,
  etag: z.string(),
  origins: PublishOriginsSchema,
  hideBroken: z.boolean(),
  publishedAt: TimestampSchema,
  publishedBy: AuthorSchema.nullable(),
});
export type BackupPublish = z.infer<typeof BackupPublishSchema>;

/**
 * One access key: its public description and the SHA-256 of its secret (never the secret). Its name
 * patterns follow the rule of a new key (at least one), so a file cannot restore a key no one could make.
 */
export const BackupKeySchema = AccessKeySchema.extend({
  kind: z.literal('key'),
  configs: CreateKeyInputSchema.shape.configs,
  secretHash: z.string().regex(/^[0-9a-f]{64}$/),
});
export type BackupKey = z.infer<typeof BackupKeySchema>;

/** What the link checker knows of one URL (docs/link-health.md), as stored. */
export const BackupLinkSchema = LinkHealthRecordSchema.extend({
  kind: z.literal('link'),
});
export type BackupLink = z.infer<typeof BackupLinkSchema>;

/**
 * One webhook (docs/publishing.md#webhooks): where it stands, but never its signing secret, which is stored
 * in clear in the database; a restored hook delivers nothing until it is made again with a new secret.
 */
export const BackupHookSchema = HookSchema.omit({
  attempts: true,
  failingSince: true,
  lastError: true,
}).extend({
  kind: z.literal('hook'),
  url: CreateHookInputSchema.shape.url,
  events: CreateHookInputSchema.shape.events,
  configs: CreateHookInputSchema.shape.configs,
  cursor: z.number().int().min(0),
});
export type BackupHook = z.infer<typeof BackupHookSchema>;

export const BackupEndSchema = z.object({
  kind: z.literal('end'),
  /** How many records of each data kind the file holds. */
  counts: z.record(z.string(), z.number().int().min(0)),
});
export type BackupEnd = z.infer<typeof BackupEndSchema>;

export const BackupRecordSchema = z.discriminatedUnion('kind', [
  BackupHeaderSchema,
  BackupConfigSchema,
  BackupRevisionSchema,
  BackupPublishSchema,
  BackupKeySchema,
  BackupLinkSchema,
  BackupHookSchema,
  BackupEndSchema,
]);
export type BackupRecord = z.infer<typeof BackupRecordSchema>;
