import { z } from 'zod';
import { ConfigNameSchema, IfMatchSchema } from './api.js';

/** A tag an expression can name as `.tag`: one run of word characters (docs/expression-reference.md §2). */
export const TagNameSchema = z
  .string({ error: 'must be a string' })
  .min(1, { error: 'must not be empty' })
  .max(200, { error: 'must be at most 200 characters' })
  .regex(/^[A-Za-z0-9_]+$/, {
    error: 'must be letters a-z, A-Z, digits and _ only, so `.tag` can name it',
  });

/** A tag as links store it (any text; only word-character tags can be named by expressions). */
export const StoredTagSchema = z
  .string({ error: 'must be a string' })
  .min(1, { error: 'must not be empty' })
  .max(200, { error: 'must be at most 200 characters' });

/** `POST /configs/:name/tags/rename`: `from` one tag or several (a merge), `to` the tag they become. */
export const TagRenameRequestSchema = z.object({
  from: z.union([
    StoredTagSchema,
    z
      .array(StoredTagSchema)
      .min(1, { error: 'must name at least one tag' })
      .max(50, { error: 'must name at most 50 tags' }),
  ]),
  to: TagNameSchema,
  dryRun: z.boolean().optional(),
});
/** The body of a tag rename. */
export type TagRenameRequest = z.infer<typeof TagRenameRequestSchema>;

/** One expression of the config that a rename rewrites: where it is, its text before and after. */
export const ExpressionChangeSchema = z.object({
  where: z.string(),
  before: z.string(),
  after: z.string(),
});
/** One rewritten expression. */
export type ExpressionChange = z.infer<typeof ExpressionChangeSchema>;

/**
 * One macro's resolved ids before and after a rename. `flagged` when the result changes in a way the
 * rename does not imply (a pure rename changes no macro's result; a merge may only add links that carried
 * one of the merged tags), with the reason.
 */
export const MacroOutcomeSchema = z.object({
  name: z.string(),
  before: z.array(z.string()),
  after: z.array(z.string()),
  flagged: z.boolean(),
  reason: z.string().optional(),
});
/** One macro's before and after. */
export type MacroOutcome = z.infer<typeof MacroOutcomeSchema>;

/** What a rename changes (the dry run's answer, and part of a stored rename's answer). */
export const TagRenamePreviewSchema = z.object({
  from: z.array(z.string()),
  to: z.string(),
  /** `to` was already a tag of some link that did not carry a `from` tag: the rename is a merge. */
  mergesIntoExisting: z.boolean(),
  /** Ids of the links whose tags change, in catalog order. */
  links: z.array(z.string()),
  expressions: z.array(ExpressionChangeSchema),
  macros: z.array(MacroOutcomeSchema),
  /** Search patterns whose regular expression matches a renamed tag: not rewritten, worth a look. */
  patternsToReview: z.array(z.string()),
  /** Human sentences: what happens (a merge says so), and every flag. */
  notes: z.array(z.string()),
});
/** A rename's preview. */
export type TagRenamePreview = z.infer<typeof TagRenamePreviewSchema>;

/** The answer of a rename: the preview, and for a stored one the new revision and ETag. */
export const TagRenameResultSchema = z.object({
  preview: TagRenamePreviewSchema,
  stored: z.boolean(),
  rev: z.number().optional(),
  etag: z.string().optional(),
});
/** A rename's answer. */
export type TagRenameResult = z.infer<typeof TagRenameResultSchema>;

/** `tags.rename`: the config's name (REST: the path), `If-Match`, and the body's fields. */
export const TagRenameInputSchema = TagRenameRequestSchema.extend({
  name: ConfigNameSchema,
  ifMatch: IfMatchSchema.optional(),
});
/** The input of `tags.rename`. */
export type TagRenameInput = z.infer<typeof TagRenameInputSchema>;
