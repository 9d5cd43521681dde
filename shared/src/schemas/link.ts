import { z } from 'zod';

/**
 * One link record, as clients are expected to write it (docs/expression-reference.md §13 lists the fields the
 * engine understands). Unknown fields are allowed and preserved; the store accepts any link whose `url` is a
 * string (see {@link validateLinkConfig}), so this schema documents the shape rather than policing it.
 */
export const LinkSchema = z.looseObject({
  url: z.string(),
  label: z.string().optional(),
  tags: z.array(z.string()).optional(),
  description: z.string().optional(),
  cssClass: z.string().optional(),
  image: z.string().optional(),
  altText: z.string().optional(),
  targetWindow: z.string().optional(),
  thumbnail: z.string().optional(),
  hooks: z.array(z.string()).optional(),
  guid: z.string().optional(),
  createdAt: z.unknown().optional(),
  allowedSchemes: z.array(z.string()).optional(),
  meta: z.record(z.string(), z.unknown()).optional(),
});
/** A link record. */
export type Link = z.infer<typeof LinkSchema>;

/**
 * A link as a resolved expression returns it: `id` first, then the prepared fields
 * (docs/expression-reference.md §16).
 */
export const ResolvedLinkSchema = z.looseObject({
  id: z.string(),
  ...LinkSchema.shape,
});
/** A resolved link, `id` included. */
export type ResolvedLink = z.infer<typeof ResolvedLinkSchema>;
