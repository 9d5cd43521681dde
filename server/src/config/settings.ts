import { availableParallelism } from 'node:os';
import { parseHistoryKeep } from './history-keep.js';
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { NamePatternSchema } from '@linkconfig/shared';
import { RateSchema } from './rate.js';
import { DurationSchema } from './duration.js';
import {
  DEFAULT_BODY_LIMIT,
  DEFAULT_BODY_MIN_RATE,
  DEFAULT_INLINE_BODY_LIMIT,
} from './limits.js';
import { DEFAULT_CACHE_BYTES } from '../cache/cache-policy.js';
import { OUTBOUND_SETTINGS, OUTBOUND_SOURCES } from './outbound-settings.js';
import { PUBLISH_SETTINGS, PUBLISH_SOURCES } from './publish-settings.js';
import { parseDatabaseUrl } from './database-url.js';

export { usage } from './usage.js';

const LEVELS = [
  'fatal',
  'error',
  'warn',
  'info',
  'debug',
  'trace',
  'silent',
] as const;

/** A size in bytes: `10485760`, `512kb`, `10mb` (also read by `linkconfig restore` for `BODY_LIMIT`). */
export const ByteSizeSchema = z
  .string()
  .regex(/^\d+(?:\.\d+)?\s*(?:b|kb|kib|mb|mib|gb|gib)?$/i, {
    error: 'must be a size such as 10485760, 512kb or 10mb',
  })
  .transform((text) => {
    const match = /^(\d+(?:\.\d+)?)\s*([a-z]*)$/i.exec(text);
    const n = Number(match?.[1] ?? 0);
    const unit = (match?.[2] ?? '').toLowerCase();
    const factor = unit.startsWith('g')
      ? 1024 ** 3
      : unit.startsWith('m')
        ? 1024 ** 2
        : unit.startsWith('k')
          ? 1024
          : 1;
    return Math.floor(n * factor);
  });

const byteSize = ByteSizeSchema;

/** `on`/`off` (also `true`/`false`, `1`/`0`, `yes`/`no`), as a boolean. */
const onOff = z
  .string()
  .regex(/^\s*(?:on|off|true|false|yes|no|1|0)\s*$/i, {
    error: 'must be on or off',
  })
  .transform((text) =>
    ['on', 'true', 'yes', '1'].includes(text.trim().toLowerCase()),
  );

/**
 * A bearer token. Whitespace is refused: the `Authorization` header can never carry it, so such a token
 * would start the server and then lock every client out.
 */
const token = z
  .string()
  .min(1)
  .regex(/^\S+$/, { error: 'must not contain whitespace' })
  .optional();

/**
 * `ANONYMOUS_READ`: what a request without a key may read: `*` (everything), `none`, or comma-separated
 * name patterns such as `public/*,docs`.
 */
const anonymousRead = z
  .string()
  .transform((value) =>
    value.trim() === 'none'
      ? []
      : value
          .split(',')
          .map((p) => p.trim())
          .filter((p) => p !== ''),
  )
  .pipe(z.array(NamePatternSchema))
  .optional();

const rate = RateSchema;

/**
 * How many proxies in front of the server are trusted to append to `X-Forwarded-For`: `off` (0, the
 * default: the socket address is the client), `on` (1), or a count of hops.
 */
const trustProxy = z
  .string()
  .regex(/^\s*(?:on|off|true|false|\d{1,2})\s*$/i, {
    error: 'must be on, off or a number of proxy hops',
  })
  .transform((text) => {
    const word = text.trim().toLowerCase();
    if (word === 'on' || word === 'true') return 1;
    if (word === 'off' || word === 'false') return 0;
    return Number(word);
  });

/**
 * The default budgets per client: far above what an honest client sends (a person with the web page, or
 * a sync job), low enough that one client cannot take the whole CPU or fill the disk.
 */
export const DEFAULT_RATE_LIMITS = {
  reads: { perSecond: 100, burst: 500 },
  writes: { perSecond: 50, burst: 200 },
} as const;

const duration = DurationSchema;

/** Where configs live when `DATABASE_URL` is not set (the server and `linkconfig keys`). */
export const DEFAULT_DATABASE_URL = './data/linkconfig.db';

const positiveInt = z.coerce.number().int().min(1);

/** Server processes: `auto` (the cores this process may use) or a number from 1 to 256. */
const workers = z
  .string()
  .regex(/^\s*(?:auto|\d{1,3})\s*$/i, { error: 'must be auto or a number' })
  .transform((text) =>
    text.trim().toLowerCase() === 'auto'
      ? availableParallelism()
      : Number(text),
  )
  .refine((n) => n >= 1 && n <= 256, { error: 'must be from 1 to 256' });

/** The server's settings, from environment variables overridden by command-line flags. */
export const SettingsSchema = z
  .object({
    port: z.coerce.number().int().min(0).max(65535).default(3000),
    host: z.string().min(1).default('0.0.0.0'),
    databaseUrl: z
      .string()
      .min(1)
      .default(DEFAULT_DATABASE_URL)
      .superRefine((url, ctx) => {
        // The storage module owns the URL rules; a URL it cannot read must stop the start, never fall
        // back to something else (a typo once became a SQLite file named after it).
        try {
          parseDatabaseUrl(url);
        } catch (error) {
          ctx.addIssue({
            code: 'custom',
            message: error instanceof Error ? error.message : String(error),
          });
        }
      }),
    bodyLimit: byteSize.default(DEFAULT_BODY_LIMIT),
    inlineBodyLimit: byteSize.default(DEFAULT_INLINE_BODY_LIMIT),
    bodyMinRate: byteSize.default(DEFAULT_BODY_MIN_RATE),
    cacheBytes: byteSize.default(DEFAULT_CACHE_BYTES),
    corsOrigins: z
      .string()
      .default('*')
      .transform((s) =>
        s
          .split(',')
          .map((o) => o.trim())
          .filter((o) => o !== ''),
      ),
    corsHeaders: z
      .string()
      .optional()
      .transform((s) =>
        s
          ?.split(',')
          .map((h) => h.trim())
          .filter((h) => h !== ''),
      ),
    eventsMaxStreams: positiveInt.default(1000),
    eventsHeartbeat: duration.default(15_000),
    eventsBuffer: byteSize
      .default(256 * 1024)
      .refine((n) => n >= 1024, { error: 'must be at least 1kb' }),
    // Inert since the change feed reads the history's log (kept by HISTORY_KEEP): still checked, so a
    // typo is refused as before, and a set value is logged as unused at start-up (start-server.ts).
    changesKeep: positiveInt.optional(),
    changesMaxAge: duration.optional(),
    historyKeep: z
      .string()
      .default('all')
      .transform((text, ctx) => {
        const keep = parseHistoryKeep(text);
        if (keep === null) {
          ctx.addIssue({
            code: 'custom',
            message:
              'must be all, a count of revisions per config (such as 100), or an age such as 365d, 12w or 48h',
          });
          return z.NEVER;
        }
        return keep;
      }),
    apiToken: token,
    readToken: token,
    metricsToken: token,
    anonymousRead,
    logLevel: z.enum(LEVELS).default('info'),
    appDir: z.string().optional(),
    seed: z.enum(['demo', 'none']).default('demo'),
    metrics: onOff.default(true),
    compression: onOff.default(true),
    accessLog: onOff.default(true),
    rateLimit: onOff.default(true),
    rateLimitReads: rate.default(DEFAULT_RATE_LIMITS.reads.perSecond),
    rateLimitReadBurst: rate.default(DEFAULT_RATE_LIMITS.reads.burst),
    rateLimitWrites: rate.default(DEFAULT_RATE_LIMITS.writes.perSecond),
    rateLimitWriteBurst: rate.default(DEFAULT_RATE_LIMITS.writes.burst),
    trustProxy: trustProxy.default(0),
    workers: workers.default(1),
    ...OUTBOUND_SETTINGS,
    ...PUBLISH_SETTINGS,
    linkCheck: onOff.default(false),
    linkCheckEvery: duration
      .default(7 * 86_400_000)
      .refine((ms) => ms >= 3_600_000, { error: 'must be at least 1h' }),
    linkCheckConfirm: duration
      .default(86_400_000)
      .refine((ms) => ms >= 60_000, { error: 'must be at least 1m' }),
  })
  .refine((s) => s.readToken === undefined || s.apiToken !== undefined, {
    path: ['readToken'],
    error:
      'needs API_TOKEN as well (otherwise writes would be more open than reads)',
  })
  .refine((s) => s.readToken === undefined || s.readToken !== s.apiToken, {
    // Equal tokens would make every reader a writer: the read token would stop meaning read-only.
    path: ['readToken'],
    error:
      'must differ from API_TOKEN (the same token would let every reader write)',
  });

/** Validated settings. */
export type Settings = z.infer<typeof SettingsSchema>;

/**
 * Where each setting comes from: its environment variable and, except for tokens (a command line is
 * visible to every user of the machine), its flag.
 */
const SOURCES = {
  port: ['PORT', 'port'],
  host: ['HOST', 'host'],
  databaseUrl: ['DATABASE_URL', 'database-url'],
  bodyLimit: ['BODY_LIMIT', 'body-limit'],
  inlineBodyLimit: ['INLINE_BODY_LIMIT', 'inline-body-limit'],
  bodyMinRate: ['BODY_MIN_RATE', 'body-min-rate'],
  cacheBytes: ['CACHE_BYTES', 'cache-bytes'],
  corsOrigins: ['CORS_ORIGINS', 'cors-origins'],
  corsHeaders: ['CORS_HEADERS', null],
  eventsMaxStreams: ['EVENTS_MAX_STREAMS', null],
  eventsHeartbeat: ['EVENTS_HEARTBEAT', null],
  eventsBuffer: ['EVENTS_BUFFER', null],
  changesKeep: ['CHANGES_KEEP', null],
  changesMaxAge: ['CHANGES_MAX_AGE', null],
  historyKeep: ['HISTORY_KEEP', null],
  apiToken: ['API_TOKEN', null],
  readToken: ['READ_TOKEN', null],
  metricsToken: ['METRICS_TOKEN', null],
  anonymousRead: ['ANONYMOUS_READ', 'anonymous-read'],
  logLevel: ['LOG_LEVEL', 'log-level'],
  appDir: ['APP_DIR', 'app-dir'],
  seed: ['SEED', 'seed'],
  metrics: ['METRICS', 'metrics'],
  compression: ['COMPRESSION', 'compression'],
  accessLog: ['ACCESS_LOG', 'access-log'],
  rateLimit: ['RATE_LIMIT', 'rate-limit'],
  rateLimitReads: ['RATE_LIMIT_READS', 'rate-limit-reads'],
  rateLimitReadBurst: ['RATE_LIMIT_READ_BURST', 'rate-limit-read-burst'],
  rateLimitWrites: ['RATE_LIMIT_WRITES', 'rate-limit-writes'],
  rateLimitWriteBurst: ['RATE_LIMIT_WRITE_BURST', 'rate-limit-write-burst'],
  trustProxy: ['TRUST_PROXY', 'trust-proxy'],
  workers: ['WORKERS', 'workers'],
  ...OUTBOUND_SOURCES,
  ...PUBLISH_SOURCES,
  linkCheck: ['LINK_CHECK', 'link-check'],
  linkCheckEvery: ['LINK_CHECK_EVERY', 'link-check-every'],
  linkCheckConfirm: ['LINK_CHECK_CONFIRM', 'link-check-confirm'],
} as const satisfies Record<keyof Settings, readonly [string, string | null]>;

type Key = keyof typeof SOURCES;

/** How a message names a setting: `PORT (--port)`, or just the variable for tokens. */
function describeSource(key: PropertyKey | undefined): string {
  if (typeof key !== 'string' || !Object.hasOwn(SOURCES, key))
    return 'settings';
  const [name, flag] = SOURCES[key as Key];
  return flag === null ? name : `${name} (--${flag})`;
}

/** Settings that cannot be used, said for the person who gave them (the command exits with 2). */
export class SettingsError extends Error {
  override readonly name = 'SettingsError';
}

/** What a command prints for settings it refused: the reason, and where the settings are listed. */
export const refusedSettings = (
  error: SettingsError,
  command: string,
): string => `${error.message}\n(${command} --help lists every setting)\n`;

/**
 * Reads settings from `env` and `argv` (flags win). Throws a {@link SettingsError} saying what is wrong
 * when something is invalid.
 */
export function loadSettings(
  env: Readonly<Record<string, string | undefined>>,
  argv: readonly string[],
): Settings | 'help' {
  const options: Record<string, { type: 'string' | 'boolean' }> = {
    help: { type: 'boolean' },
  };
  for (const [, flag] of Object.values(SOURCES)) {
    if (flag !== null) options[flag] = { type: 'string' };
  }
  let values;
  try {
    ({ values } = parseArgs({ args: [...argv], options, strict: true }));
  } catch (error) {
    // An unknown flag or one without its value: said in parseArgs' words.
    throw new SettingsError(
      error instanceof Error ? error.message : String(error),
    );
  }
  if (values['help'] === true) return 'help';
  const input: Partial<Record<Key, string>> = {};
  for (const [key, [name, flag]] of Object.entries(SOURCES)) {
    const fromFlag = flag === null ? undefined : values[flag];
    const value = typeof fromFlag === 'string' ? fromFlag : env[name];
    // An empty variable means "not set", as in most shells' `VAR= command`.
    if (value !== undefined && value !== '') input[key as Key] = value;
  }
  const parsed = SettingsSchema.safeParse(input);
  if (!parsed.success) {
    const problems = parsed.error.issues
      .map((i) => `${describeSource(i.path[0])}: ${i.message}`)
      .join('\n  ');
    throw new SettingsError(`invalid settings:\n  ${problems}`);
  }
  return parsed.data;
}
