/**
 * Settings of the published view (`/published`, docs/publishing.md): who may read it, the cache lifetimes
 * its answers carry, and where a publish sends purges. Spread into the one settings schema.
 */
import { z } from 'zod';
import { DurationSchema } from './duration.js';
import { RateSchema } from './rate.js';

/** Defaults: browsers revalidate after a minute, shared caches (purged on publish) keep five. */
export const PUBLISHED_CACHE_DEFAULTS = {
  maxAgeMs: 60_000,
  sMaxAgeMs: 300_000,
  staleWhileRevalidateMs: 60_000,
  staleIfErrorMs: 86_400_000,
} as const;

/**
 * Default budgets of `/published` (with `RATE_LIMIT` on): per address, far above what one visitor's
 * pages read; per key (a site's page key is shared by all its visitors), ten times that.
 */
export const PUBLISHED_RATE_DEFAULTS = {
  byAddress: { perSecond: 50, burst: 500 },
  byKey: { perSecond: 500, burst: 5000 },
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
  publishedRateAddress: RateSchema.default(
    PUBLISHED_RATE_DEFAULTS.byAddress.perSecond,
  ),
  publishedRateAddressBurst: RateSchema.default(
    PUBLISHED_RATE_DEFAULTS.byAddress.burst,
  ),
  publishedRateKey: RateSchema.default(PUBLISHED_RATE_DEFAULTS.byKey.perSecond),
  publishedRateKeyBurst: RateSchema.default(
    PUBLISHED_RATE_DEFAULTS.byKey.burst,
  ),
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
  publishedRateAddress: [
    'PUBLISHED_RATE_LIMIT_ADDRESS',
    'published-rate-limit-address',
  ],
  publishedRateAddressBurst: [
    'PUBLISHED_RATE_LIMIT_ADDRESS_BURST',
    'published-rate-limit-address-burst',
  ],
  publishedRateKey: ['PUBLISHED_RATE_LIMIT_KEY', 'published-rate-limit-key'],
  publishedRateKeyBurst: [
    'PUBLISHED_RATE_LIMIT_KEY_BURST',
    'published-rate-limit-key-burst',
  ],
} as const;

/** The budgets of `/published` from the settings given (`PUBLISHED_RATE_LIMIT_*`), defaults for the rest. */
export function publishedRates(settings: {
  readonly publishedRateAddress?: number | undefined;
  readonly publishedRateAddressBurst?: number | undefined;
  readonly publishedRateKey?: number | undefined;
  readonly publishedRateKeyBurst?: number | undefined;
}) {
  const { byAddress, byKey } = PUBLISHED_RATE_DEFAULTS;
  return {
    byAddress: {
      perSecond: settings.publishedRateAddress ?? byAddress.perSecond,
      burst: settings.publishedRateAddressBurst ?? byAddress.burst,
    },
    byKey: {
      perSecond: settings.publishedRateKey ?? byKey.perSecond,
      burst: settings.publishedRateKeyBurst ?? byKey.burst,
    },
  };
}
