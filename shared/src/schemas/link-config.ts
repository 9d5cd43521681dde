import { z } from 'zod';
import { LinkSchema } from './link.js';

/** A macro: `@name` in an expression expands to `linkItems`, verbatim (docs/expression-reference.md §3). */
export const MacroSchema = z.looseObject({ linkItems: z.string() });
/** A macro definition. */
export type Macro = z.infer<typeof MacroSchema>;

/** Options of an object-form search pattern (docs/expression-reference.md §8.3). */
export const SearchPatternOptionsSchema = z.looseObject({
  fields: z.string().optional(),
  limit: z.union([z.number(), z.string(), z.null()]).optional(),
  age: z.string().optional(),
  sort: z.string().optional(),
});

/**
 * A stored search pattern (docs/expression-reference.md §8): a regular expression, or
 * `{ pattern, options? }`.
 */
export const SearchPatternSchema = z.union([
  z.string(),
  z.looseObject({
    pattern: z.string(),
    options: SearchPatternOptionsSchema.optional(),
  }),
]);
/** A stored search pattern. */
export type SearchPattern = z.infer<typeof SearchPatternSchema>;

/** Free-form settings; the service stores them and never interprets them. */
export const SettingsSchema = z.record(z.string(), z.unknown());
/** Config settings. */
export type Settings = z.infer<typeof SettingsSchema>;

/**
 * A link config: its four data parts (docs/http-api.md#configs). Every other top-level key is allowed and
 * preserved, in order.
 */
export const LinkConfigSchema = z.looseObject({
  allLinks: z.record(z.string(), LinkSchema),
  macros: z.record(z.string(), MacroSchema).optional(),
  settings: SettingsSchema.optional(),
  searchPatterns: z.record(z.string(), SearchPatternSchema).optional(),
});
/** A link config. */
export type LinkConfig = z.infer<typeof LinkConfigSchema>;

/** Time stamps are ISO 8601 in UTC with milliseconds, as `Date.prototype.toISOString` writes them. */
export const TimestampSchema = z.iso.datetime({ precision: 3 });

/** What a store keeps for one name: the config plus server- or store-owned metadata. */
export const ConfigEntrySchema = z.object({
  config: LinkConfigSchema,
  meta: z.object({
    createdAt: TimestampSchema,
    updatedAt: TimestampSchema,
  }),
});
/** A config with its metadata (the body of `GET /configs/:name`, the result of `loadEntry`). */
export type ConfigEntry = z.infer<typeof ConfigEntrySchema>;
