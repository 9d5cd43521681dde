import { z } from 'zod';
import { isPlainObject } from '../util/is-plain-object.js';
import { ConfigNameSchema, IfMatchSchema } from './api.js';

/**
 * A JSON Merge Patch (RFC 7396) of a config: an object whose members replace the config's members of the
 * same name, `null` removes one, and a nested object patches the member in turn. Arrays (a link's `tags`)
 * are replaced whole.
 */
export const MergePatchSchema = z.record(z.string(), z.unknown());
/** A JSON Merge Patch of a config. */
export type MergePatch = z.infer<typeof MergePatchSchema>;

/**
 * Where a three-way merge found a conflict: `[]` is the whole config, `['allLinks', id]` a whole link
 * (removed on one side, changed on the other), `['allLinks', id, field]` one field of a link, and
 * `[part, key]` one key of `macros`, `settings` or `searchPatterns` (or one other top-level member).
 */
export const MergePathSchema = z.array(z.string());
/** A path into a config. */
export type MergePath = z.infer<typeof MergePathSchema>;

/**
 * A conflict: both sides changed the same thing differently since the base (or one changed it and the
 * other removed it). A value that does not exist on a side is `undefined` there.
 */
export const MergeConflictSchema = z.object({
  path: MergePathSchema,
  base: z.unknown(),
  local: z.unknown(),
  remote: z.unknown(),
});
/** A conflict of a three-way merge. */
export type MergeConflict = z.infer<typeof MergeConflictSchema>;

/**
 * How one conflict is settled: take one of the three versions at its path, or give a value (`undefined`:
 * the thing is removed).
 */
export const ConflictResolutionSchema = z.union([
  z.object({
    path: MergePathSchema,
    take: z.enum(['local', 'remote', 'base']),
  }),
  z.object({ path: MergePathSchema, value: z.unknown() }),
]);
/** A resolution of one conflict. */
export type ConflictResolution = z.infer<typeof ConflictResolutionSchema>;

/**
 * `configs.patch`: a JSON Merge Patch (RFC 7396) of the stored config; with `ifMatch` it applies only
 * to that version, without it to the current one.
 */
export const PatchConfigInputSchema = z.object({
  name: ConfigNameSchema,
  patch: z
    .custom<Record<string, unknown>>(isPlainObject, {
      error: 'must be a JSON object (a merge patch of the config)',
    })
    .meta({
      override: ({ jsonSchema }: { jsonSchema: Record<string, unknown> }) => {
        // `additionalProperties` says any member is allowed: without it, generated clients
        // (openapi-typescript) type the body as an object with no members, and no patch compiles.
        Object.assign(jsonSchema, {
          type: 'object',
          additionalProperties: true,
          description:
            'A JSON Merge Patch (RFC 7396) of the stored config: members replace, `null` removes, objects merge, arrays are replaced whole.',
        });
      },
    }),
  ifMatch: IfMatchSchema.optional(),
});
export type PatchConfigInput = z.infer<typeof PatchConfigInputSchema>;
