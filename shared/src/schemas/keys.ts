import { z } from 'zod';
import { LIMITS } from './limits.js';

/**
 * What an access key may do, from least to most: `read` configs, `write` them (and read: drafts),
 * `publish` them (and write: pin the revision sites see, `docs/publishing.md`), or `admin`: publish, and
 * manage keys. Each scope may do everything the scopes before it may, on the config names the
 * key's patterns match. This order is the one place it is written: a new scope is one more entry here.
 */
export const KEY_SCOPES = ['read', 'write', 'publish', 'admin'] as const;
export const KeyScopeSchema = z.enum(KEY_SCOPES, {
  error: `must be ${KEY_SCOPES.slice(0, -1).join(', ')} or ${KEY_SCOPES.at(-1)}`,
});
export type KeyScope = z.infer<typeof KeyScopeSchema>;

/** Whether a key of scope `scope` may do what `need` allows ({@link KEY_SCOPES} order). */
export function scopeCovers(scope: KeyScope, need: KeyScope): boolean {
  return KEY_SCOPES.indexOf(scope) >= KEY_SCOPES.indexOf(need);
}

/**
 * Most name patterns of a key made now. Matching costs at most about twice the lengths of name and
 * pattern per pattern, so this bounds what one key costs per name checked. A key stored before the bound
 * (or restored from a backup) with more still loads and works as stored.
 */
export const KEY_PATTERNS_MAX = 32;

/**
 * A config-name pattern: a name in which `*` stands for any run of characters (`/` included), such as
 * `site-a/*`, `docs` or `*`. No commas (lists of patterns are comma-separated) and no spaces around.
 */
export const NamePatternSchema = z
  .string({ error: 'must be a string' })
  .min(1, { error: 'must not be empty' })
  .max(LIMITS.nameMaxLength, {
    error: `must be at most ${LIMITS.nameMaxLength} characters`,
  })
  .refine((p) => !/[,\p{Cc}]/u.test(p) && p.trim() === p, {
    error:
      'must be a config name, * standing for any run of characters (no commas, control characters or surrounding spaces)',
  });

/** A key's public description: everything but its secret. */
export const AccessKeySchema = z.object({
  id: z.string(),
  label: z.string(),
  scope: KeyScopeSchema,
  configs: z.array(z.string()),
  /** ISO 8601; absent: never expires. */
  expiresAt: z.string().nullable(),
  createdAt: z.string(),
  /** When the key was last accepted (kept to about a minute), `null` before its first use. */
  lastUsedAt: z.string().nullable(),
  /** When it was revoked; a revoked key is refused. */
  revokedAt: z.string().nullable(),
});
export type AccessKey = z.infer<typeof AccessKeySchema>;

/** `POST /keys`: a new key. */
export const CreateKeyInputSchema = z.object({
  label: z
    .string({ error: 'must be a string' })
    .trim()
    .min(1, { error: 'must not be empty' })
    .max(200, { error: 'must be at most 200 characters' }),
  scope: KeyScopeSchema,
  configs: z
    .array(NamePatternSchema, { error: 'must be a list of name patterns' })
    .min(1, { error: 'must name at least one pattern' })
    .max(KEY_PATTERNS_MAX, {
      error: `must have at most ${KEY_PATTERNS_MAX} patterns`,
    }),
  expiresAt: z.iso
    .datetime({ offset: true, error: 'must be an ISO 8601 date and time' })
    .optional(),
});
export type CreateKeyInput = z.infer<typeof CreateKeyInputSchema>;

/** The answer of `POST /keys`: the key, and its secret, shown this once. */
export const CreateKeyOutputSchema = AccessKeySchema.extend({
  secret: z.string().meta({
    description:
      'The bearer secret (`lck_…`); shown only in this answer, stored only as a hash',
  }),
});
export type CreateKeyOutput = z.infer<typeof CreateKeyOutputSchema>;

/** `GET /keys`. */
export const ListKeysOutputSchema = z.object({
  keys: z.array(AccessKeySchema),
});
export type ListKeysOutput = z.infer<typeof ListKeysOutputSchema>;

/** `GET /access`: what the caller may do, so a page can say it and offer only what works. */
export const AccessOutputSchema = z.object({
  /** The key's (or token's) scope; `null` without a key (reads then follow `anonymousRead`). */
  scope: KeyScopeSchema.nullable(),
  /** The key's name patterns (`[]` without a key). */
  configs: z.array(z.string()),
  /** What anyone may read without a key (`ANONYMOUS_READ`); a key reads these too. */
  anonymousRead: z.array(z.string()),
  /** The key's id and label, `null` without a key. */
  key: z.object({ id: z.string(), label: z.string() }).nullable(),
});
export type AccessOutput = z.infer<typeof AccessOutputSchema>;

/** `DELETE /keys/{id}`. */
export const KeyIdInputSchema = z.object({
  id: z
    .string()
    .min(1, { error: 'must not be empty' })
    .max(64, { error: 'must be at most 64 characters' })
    .describe('The id of the key (as `GET /keys` lists it; never its secret)'),
});
export type KeyIdInput = z.infer<typeof KeyIdInputSchema>;
