import { z } from 'zod';
import { asStored, ConfigNameSchema, IfMatchSchema } from './api.js';
import { AuthorSchema } from './author.js';
import type { LinkConfig } from './link-config.js';

/** What a revision did. */
export const REVISION_OPS = ['put', 'delete', 'patch', 'restore'] as const;
export const RevisionOpSchema = z.enum(REVISION_OPS);
export type RevisionOp = z.infer<typeof RevisionOpSchema>;

/**
 * A whole number within `min`–`max`, documented as an integer with `description`. A number, not a
 * coerced value, so tRPC clients get `number` as its input type; the REST routes convert a query string
 * or path segment to a number before this check (`numberFields` of the route table in the server).
 */
export const wholeNumber = (
  min: number,
  description: string,
  max = Number.MAX_SAFE_INTEGER,
) =>
  z
    .number({ error: 'must be a whole number' })
    .int({ error: 'must be a whole number' })
    .min(min, { error: `must be at least ${min}` })
    .max(max, { error: `must be at most ${max}` })
    .meta({
      override: ({ jsonSchema }: { jsonSchema: Record<string, unknown> }) => {
        for (const key of Object.keys(jsonSchema)) delete jsonSchema[key];
        Object.assign(jsonSchema, {
          type: 'integer',
          minimum: min,
          ...(max < Number.MAX_SAFE_INTEGER ? { maximum: max } : {}),
          description,
        });
      },
    });

/** Who made a revision, inline (the same fields as {@link AuthorSchema}). */
const ByAuthorSchema = z.object(AuthorSchema.shape).nullable();

/** `history` page bounds. */
export const HISTORY_LIMITS = { defaultLimit: 50, maxLimit: 1000 } as const;

/** `GET /configs/{name}/history`: newest first, `before` a revision number (exclusive). */
export const HistoryInputSchema = z.object({
  name: ConfigNameSchema,
  limit: wholeNumber(
    1,
    'Revisions per page (default 50, at most 1000).',
    HISTORY_LIMITS.maxLimit,
  ).default(HISTORY_LIMITS.defaultLimit),
  before: wholeNumber(
    1,
    'Only revisions below this one (the `next` of the previous page).',
  ).optional(),
});
export type HistoryInput = z.input<typeof HistoryInputSchema>;

/** Links added, removed and changed against the revision before (a delete holds no links). */
export const ChangeSummarySchema = z.object({
  added: z.number().int(),
  removed: z.number().int(),
  changed: z.number().int(),
});
export type ChangeSummary = z.infer<typeof ChangeSummarySchema>;

export const HistoryEntrySchema = z.object({
  rev: z.number().int(),
  op: RevisionOpSchema,
  at: z.string().describe('when the write happened (its updatedAt)'),
  by: ByAuthorSchema,
  etag: z
    .string()
    .nullable()
    .describe('the ETag the write gave the config; null for a delete'),
  size: z
    .number()
    .int()
    .nullable()
    .describe('bytes of the stored JSON; null for a delete'),
  summary: ChangeSummarySchema,
});
export type HistoryEntry = z.infer<typeof HistoryEntrySchema>;

export const HistoryOutputSchema = z.object({
  revisions: z.array(HistoryEntrySchema),
  next: z
    .number()
    .int()
    .nullable()
    .describe('`before` of the next page; null on the last page'),
});
export type HistoryOutput = z.infer<typeof HistoryOutputSchema>;

/** `GET /configs/{name}/revisions/{rev}`. */
export const RevisionInputSchema = z.object({
  name: ConfigNameSchema,
  rev: wholeNumber(1, 'The revision number (1 is the first).'),
});
export type RevisionInput = z.input<typeof RevisionInputSchema>;

export const RevisionMetaSchema = z.object({
  rev: z.number().int(),
  op: RevisionOpSchema,
  at: z.string(),
  by: ByAuthorSchema,
});
export const RevisionOutputSchema = z.object({
  config: asStored<LinkConfig>('LinkConfig'),
  meta: RevisionMetaSchema,
});
export type RevisionOutput = z.infer<typeof RevisionOutputSchema>;

/** `GET /configs/{name}/diff`: `to` defaults to the newest revision. */
export const DiffInputSchema = z.object({
  name: ConfigNameSchema,
  from: wholeNumber(1, 'The older revision.'),
  to: wholeNumber(1, 'The newer revision (default: the newest).').optional(),
});
export type DiffInput = z.input<typeof DiffInputSchema>;

/** What changed between two configs: links by id, and whether the other parts changed. */
export const ConfigDiffSchema = z.object({
  added: z.array(z.string()),
  removed: z.array(z.string()),
  changed: z.array(z.object({ id: z.string(), fields: z.array(z.string()) })),
  macros: z.boolean(),
  settings: z.boolean(),
  searchPatterns: z.boolean(),
});
export type ConfigDiff = z.infer<typeof ConfigDiffSchema>;

/** A part of a config besides its links, as a comparison names it (`other`: any further key). */
export const ConfigPartSchema = z.enum([
  'macros',
  'searchPatterns',
  'settings',
  'other',
]);
export type ConfigPart = z.infer<typeof ConfigPartSchema>;

/**
 * What changed from one config to another, with the values (`compareConfigs` in shared/src/util):
 * the one diff the server's history and the page both use. Ids added in the order of `after`, removed
 * in the order of `before`; a changed link carries both sides and the fields that differ.
 */
export const ConfigComparisonSchema = z.object({
  added: z.array(z.string()),
  removed: z.array(z.string()),
  changed: z.array(
    z.object({
      id: z.string(),
      fields: z.array(z.string()),
      before: z.unknown(),
      after: z.unknown(),
    }),
  ),
  parts: z.array(ConfigPartSchema),
});
export type ConfigComparison = z.infer<typeof ConfigComparisonSchema>;
export const DiffOutputSchema = ConfigDiffSchema.extend({
  from: z.number().int(),
  to: z.number().int(),
});
export type DiffOutput = z.infer<typeof DiffOutputSchema>;

/** `POST /configs/{name}/restore`: the whole revision, or only `links` of it into the current config. */
export const RestoreInputSchema = z.object({
  name: ConfigNameSchema,
  rev: wholeNumber(1, 'The revision to restore.'),
  links: z
    .array(z.string().min(1).max(1000))
    .min(1)
    .max(10_000)
    .optional()
    .describe(
      'Only these links, as they were in the revision (absent there: removed now).',
    ),
  ifMatch: IfMatchSchema.optional(),
});
export type RestoreInput = z.input<typeof RestoreInputSchema>;
export const RestoreOutputSchema = z.object({
  rev: z.number().int().describe('the revision the restore made'),
  etag: z.string(),
});
export type RestoreOutput = z.infer<typeof RestoreOutputSchema>;

/** `GET /history`: the audit trail, oldest first from `since` (a change id, exclusive). */
export const AuditInputSchema = z.object({
  since: wholeNumber(
    0,
    'Entries after this change id (default 0: from the start).',
  ).default(0),
  limit: wholeNumber(
    1,
    'Entries per page (default 100, at most 1000).',
    HISTORY_LIMITS.maxLimit,
  ).default(100),
  config: ConfigNameSchema.meta({
    description: 'Only the revisions of this config.',
  }).optional(),
});
export type AuditInput = z.input<typeof AuditInputSchema>;
export const AuditEntrySchema = z.object({
  id: z.number().int(),
  name: z.string(),
  rev: z.number().int(),
  op: RevisionOpSchema,
  at: z.string(),
  by: ByAuthorSchema,
  requestId: z.string().nullable(),
});
export type AuditEntry = z.infer<typeof AuditEntrySchema>;
export const AuditOutputSchema = z.object({
  entries: z.array(AuditEntrySchema),
  next: z
    .number()
    .int()
    .nullable()
    .describe('`since` of the next page; null when there is none yet'),
});
export type AuditOutput = z.infer<typeof AuditOutputSchema>;

/** `GET /configs`: `deleted=true` lists the deleted, restorable names instead. */
export const ListConfigsInputSchema = z
  .object({
    deleted: z
      .enum(['true', 'false'])
      .meta({
        description: '`true`: the names deleted and still restorable.',
      })
      .optional(),
  })
  .optional();
export type ListConfigsInput = z.input<typeof ListConfigsInputSchema>;
