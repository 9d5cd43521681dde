/**
 * Settings of the published view (`/published`, docs/publishing.md): who may read it, the cache lifetimes
 * its answers carry, and where a publish sends purges. Spread into the one settings schema.
 */
import { z } from 'zod';
import { DurationSchema } from './duration.js';

/** Defaults: browsers revalidate after a minute, shared caches (purged on publish) keep five. */
export const PUBLISHED_CACHE_DEFAULTS = {
  maxAgeMs: 60_000,
  sMaxAgeMs: 300_000,
  staleWhileRevalidateMs: 60_000,
  staleIfErrorMs: 86_400_000,
} as const;

/** `PURGE_URLS`: comma-separated cache URLs a publish sends a purge to (`http://varnish:6081`). */
const purgeUrls = z.string().transform((text, ctx) => {
  const urls = text
    .split(',')
    .map((u) => u.trim())
    .filter((u) => u !== '');
  for (const url of urls) {
    if (!URL.canParse(url) || !/^https?:$/.test(new URL(url).protocol)) {
      ctx.addIssue({
        code: 'custom',
        message: `${url} is not an http(s) URL`,
      });
      return z.NEVER;
    }
  }
  return urls;
});

/** The fields of the settings schema. */
export const PUBLISH_SETTINGS = {
  publishedRead: z
    .enum(['public', 'key'], { error: 'must be public or key' })
    .default('public'),
  publishedMaxAge: DurationSchema.default(PUBLISHED_CACHE_DEFAULTS.maxAgeMs),
  publishedSMaxAge: DurationSchema.default(PUBLISHED_CACHE_DEFAULTS.sMaxAgeMs),
  publishedStaleWhileRevalidate: DurationSchema.default(
    PUBLISHED_CACHE_DEFAULTS.staleWhileRevalidateMs,
  ),
  publishedStaleIfError: DurationSchema.default(
    PUBLISHED_CACHE_DEFAULTS.staleIfErrorMs,
  ),
  purgeUrls: purgeUrls.optional(),
  purgeMethod: z
    .enum(['PURGE', 'BAN'], { error: 'must be PURGE or BAN' })
    .default('PURGE'),
};

/** Their environment variables and flags. */
export const PUBLISH_SOURCES = {
  publishedRead: ['PUBLISHED_READ', 'published-read'],
  publishedMaxAge: ['PUBLISHED_MAX_AGE', 'published-max-age'],
  publishedSMaxAge: ['PUBLISHED_S_MAXAGE', 'published-s-maxage'],
  publishedStaleWhileRevalidate: [
    'PUBLISHED_STALE_WHILE_REVALIDATE',
    'published-stale-while-revalidate',
  ],
  publishedStaleIfError: [
    'PUBLISHED_STALE_IF_ERROR',
    'published-stale-if-error',
  ],
  purgeUrls: ['PURGE_URLS', 'purge-urls'],
  purgeMethod: ['PURGE_METHOD', 'purge-method'],
} as const;
