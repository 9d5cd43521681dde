import { z } from 'zod';
import { ConfigNameSchema, IfMatchSchema } from './api.js';
import { AuthorSchema } from './author.js';

/** Most site origins one publish record holds. */
export const PUBLISH_ORIGINS_MAX = 32;

/**
 * A web origin as browsers send it in `Origin`: scheme, host and port only (`https://site-a.example`,
 * `http://127.0.0.1:8080`), no path, no trailing slash.
 */
export const SiteOriginSchema = z
  .string({ error: 'must be a string' })
  .max(256, { error: 'must be at most 256 characters' })
  .refine(
    (value) => {
      try {
        const url = new URL(value);
        return (
          (url.protocol === 'https:' || url.protocol === 'http:') &&
          url.origin === value
        );
      } catch {
        return false;
      }
    },
    {
      error:
        'must be a web origin: http(s)://host[:port], without path or trailing slash',
    },
  );

/**
 * The site origins a published config may be read from in a browser (CORS on `/published`); `null`: any
 * origin.
 */
export const PublishOriginsSchema = z
  .array(SiteOriginSchema, { error: 'must be a list of origins' })
  .max(PUBLISH_ORIGINS_MAX, {
    error: `must have at most ${PUBLISH_ORIGINS_MAX} origins`,
  })
  .nullable();

/** `POST /configs/{name}/publish`: which revision to publish (default: the head) and for which sites. */
export const PublishInputSchema = z.object({
  name: ConfigNameSchema,
  rev: z
    .number({ error: 'must be a revision number' })
    .int({ error: 'must be a whole number' })
    .min(1, { error: 'must be at least 1' })
    .optional()
    .meta({
      description:
        'The revision to publish (an older one is a rollback); default: the current one (the head).',
    }),
  origins: PublishOriginsSchema.optional().meta({
    description:
      'Site origins allowed to read the published config from a browser; `null`: any origin; absent: those of the current publish record (any, when there is none).',
  }),
  hideBroken: z.boolean({ error: 'must be true or false' }).optional().meta({
    description:
      'Leave links confirmed broken or unreachable by the link checker out of what `/published` serves; absent: as the current publish record says (off when there is none).',
  }),
  ifMatch: IfMatchSchema.optional(),
});
export type PublishInput = z.infer<typeof PublishInputSchema>;

/** A config's publish record: the revision its published view serves, for which sites, by whom. */
export const PublishRecordSchema = z.object({
  name: z.string(),
  /** The revision published. */
  rev: z.number(),
  /** The published version's ETag (what `/published/configs/{name}` answers with). */
  etag: z.string(),
  origins: z.array(z.string()).nullable(),
  /** Whether `/published` leaves out links confirmed broken or unreachable. */
  hideBroken: z.boolean(),
  publishedAt: z.string(),
  /** Who published it (the same fields as {@link AuthorSchema}, inline); `null`: nobody known. */
  publishedBy: z.object(AuthorSchema.shape).nullable(),
});
export type PublishRecord = z.infer<typeof PublishRecordSchema>;

/** `DELETE /configs/{name}/publish`: the revision that was published (`null`: none was). */
export const UnpublishOutputSchema = z.object({
  name: z.string(),
  rev: z.number().nullable(),
});
export type UnpublishOutput = z.infer<typeof UnpublishOutputSchema>;
