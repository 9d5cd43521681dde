import { parseArgs } from 'node:util';
import { z } from 'zod';
import { parseDatabaseUrl } from '../storage/open-repository.js';

const LEVELS = [
  'fatal',
  'error',
  'warn',
  'info',
  'debug',
  'trace',
  'silent',
] as const;

const byteSize = z
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

const DURATION_UNITS: Readonly<Record<string, number>> = {
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
};

/** A duration in ms: `250`, `250ms`, `15s`, `10m`, `24h`, `7d`. */
const duration = z
  .string()
  .regex(/^\d+\s*(?:ms|s|m|h|d)?$/i, {
    error: 'must be a duration such as 15000, 15s, 10m, 24h or 7d',
  })
  .transform((text) => {
    const match = /^(\d+)\s*([a-z]*)$/i.exec(text);
    return (
      Number(match?.[1] ?? 0) *
      (DURATION_UNITS[(match?.[2] ?? '').toLowerCase() || 'ms'] ?? 1)
    );
  })
  .refine((ms) => ms >= 1, { error: 'must be at least 1 ms' });

const positiveInt = z.coerce.number().int().min(1);

/** The server's settings, from environment variables overridden by command-line flags. */
export const SettingsSchema = z
  .object({
    port: z.coerce.number().int().min(0).max(65535).default(3000),
    host: z.string().min(1).default('0.0.0.0'),
    databaseUrl: z
      .string()
      .min(1)
      .default('./data/linkconfig.db')
      .superRefine((url, ctx) => {
        try {
          parseDatabaseUrl(url);
        } catch (error) {
          ctx.addIssue({
            code: 'custom',
            message: error instanceof Error ? error.message : String(error),
          });
        }
      }),
    bodyLimit: byteSize.default(10 * 1024 * 1024),
    cacheBytes: byteSize.default(256 * 1024 * 1024),
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
    changesKeep: positiveInt.default(10_000),
    changesMaxAge: duration.default(7 * 86_400_000),
    apiToken: z.string().min(1).optional(),
    readToken: z.string().min(1).optional(),
    logLevel: z.enum(LEVELS).default('info'),
    appDir: z.string().optional(),
    seed: z.enum(['demo', 'none']).default('demo'),
  })
  .refine((s) => s.readToken === undefined || s.apiToken !== undefined, {
    error:
      'READ_TOKEN needs API_TOKEN as well (otherwise writes would be more open than reads)',
  });

/** Validated settings. */
export type Settings = z.infer<typeof SettingsSchema>;

/** Usage text for `--help`. */
export const USAGE = `Usage: node server/dist/main.js [options]

Options (each also an environment variable):
  --port <n>            PORT           port to listen on (default 3000)
  --host <addr>         HOST           address to bind (default 0.0.0.0)
  --database-url <url>  DATABASE_URL   sqlite:<path>, a plain path, or postgres://… for several
                                       instances (default ./data/linkconfig.db)
  --body-limit <size>   BODY_LIMIT     largest request body (default 10mb)
  --cache-bytes <size>  CACHE_BYTES    budget of the in-memory config cache (default 256mb)
  --cors-origins <list> CORS_ORIGINS   comma-separated allowed origins, or * (default *)
                        CORS_HEADERS   request headers allowed cross-origin (default: those the
                                       browser asks for, from an allowed origin)
                        EVENTS_MAX_STREAMS  most open change streams, /events and tRPC (default 1000)
                        EVENTS_HEARTBEAT    heartbeat interval of /events streams (default 15s)
                        EVENTS_BUFFER       how far a stream's reader may lag before it is cut off
                                            (default 256kb; it reconnects and resumes by id)
                        CHANGES_KEEP        changes kept for resuming streams (default 10000)
                        CHANGES_MAX_AGE     oldest change kept (default 7d)
                        API_TOKEN      bearer token needed for PUT and DELETE (unset: open)
                        READ_TOKEN     bearer token for reads (needs API_TOKEN; unset: reads open)
  --log-level <level>   LOG_LEVEL      fatal|error|warn|info|debug|trace|silent (default info)
  --app-dir <path>      APP_DIR        folder of the built web page served at / (default web-client/dist-app)
  --seed <demo|none>    SEED           seed a demo config into an empty database (default demo)
  --help                               print this text
`;

/** Reads settings from `env` and `argv` (flags win). Throws a readable message when something is invalid. */
export function loadSettings(
  env: Readonly<Record<string, string | undefined>>,
  argv: readonly string[],
): Settings | 'help' {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      port: { type: 'string' },
      host: { type: 'string' },
      'database-url': { type: 'string' },
      'body-limit': { type: 'string' },
      'cache-bytes': { type: 'string' },
      'cors-origins': { type: 'string' },
      'log-level': { type: 'string' },
      'app-dir': { type: 'string' },
      seed: { type: 'string' },
      help: { type: 'boolean' },
    },
    strict: true,
  });
  if (values.help === true) return 'help';
  const pick = (flag: string | undefined, name: string): string | undefined => {
    const value = flag ?? env[name];
    return value === undefined || value === '' ? undefined : value;
  };
  const parsed = SettingsSchema.safeParse({
    port: pick(values.port, 'PORT'),
    host: pick(values.host, 'HOST'),
    databaseUrl: pick(values['database-url'], 'DATABASE_URL'),
    bodyLimit: pick(values['body-limit'], 'BODY_LIMIT'),
    cacheBytes: pick(values['cache-bytes'], 'CACHE_BYTES'),
    corsOrigins: pick(values['cors-origins'], 'CORS_ORIGINS'),
    corsHeaders: pick(undefined, 'CORS_HEADERS'),
    eventsMaxStreams: pick(undefined, 'EVENTS_MAX_STREAMS'),
    eventsHeartbeat: pick(undefined, 'EVENTS_HEARTBEAT'),
    eventsBuffer: pick(undefined, 'EVENTS_BUFFER'),
    changesKeep: pick(undefined, 'CHANGES_KEEP'),
    changesMaxAge: pick(undefined, 'CHANGES_MAX_AGE'),
    apiToken: pick(undefined, 'API_TOKEN'),
    readToken: pick(undefined, 'READ_TOKEN'),
    logLevel: pick(values['log-level'], 'LOG_LEVEL'),
    appDir: pick(values['app-dir'], 'APP_DIR'),
    seed: pick(values.seed, 'SEED'),
  });
  if (!parsed.success) {
    const problems = parsed.error.issues
      .map((i) => `${i.path.join('.') || 'settings'}: ${i.message}`)
      .join('\n  ');
    throw new Error(`invalid settings:\n  ${problems}`);
  }
  return parsed.data;
}
