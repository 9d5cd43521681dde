/**
 * `linkconfig keys create|list|revoke`: access keys managed on the database directly (`--database-url`
 * or `DATABASE_URL`), so an operator can make the first admin key before any server runs. The rules of
 * a key (its secret, what is stored) are the key service's, shared with `POST /keys`.
 */
import type { Command } from 'commander';
import {
  CreateKeyInputSchema,
  KEY_SCOPES,
  NamePatternSchema,
} from '@linkconfig/shared';
import type { AccessKey, CreateKeyInput } from '@linkconfig/shared';
import { parseDuration } from '../config/duration.js';
import { describeIssues, issuesOf } from '../errors.js';
import { expiryRefused, KeyService } from '../keys/key-service.js';
import {
  databaseUrlOf,
  listing,
  printSecretOnce,
  UsageError,
} from './cli-io.js';
import type { CliIo } from './cli-io.js';
import { withCliDatabase } from './open-database.js';
import type { DatabaseUse } from './open-database.js';

interface DatabaseOption {
  readonly databaseUrl?: string;
}

/** Runs `work` on the keys of the database (used as `use` says), closing it afterwards. */
async function withKeys<T>(
  {
    options,
    io,
    use,
  }: { options: DatabaseOption; io: CliIo; use: DatabaseUse },
  work: (keys: KeyService) => Promise<T>,
): Promise<T> {
  return withCliDatabase(
    { url: databaseUrlOf(options, io), use },
    (repository) => work(new KeyService(repository.keys)),
  );
}

/** `--expires`: a duration from now (`30d`, `12h`) or an ISO 8601 date, which must lie ahead. */
export function parseExpiry(value: string, now: Date): string {
  const duration = parseDuration(value);
  const at =
    duration !== null
      ? new Date(now.getTime() + duration)
      : /^\d{4}-\d{2}-\d{2}/.test(value)
        ? new Date(value)
        : new Date(Number.NaN);
  if (Number.isNaN(at.getTime())) {
    throw new UsageError(
      `--expires must be a duration such as 30d, 12h or 2w, or an ISO date such as 2027-01-31; got "${value}"`,
    );
  }
  const refused = expiryRefused(at.toISOString(), now);
  if (refused !== null) {
    throw new UsageError(`--expires must lie in the future; got "${value}"`);
  }
  return at.toISOString();
}

interface CreateOptions extends DatabaseOption {
  readonly label: string;
  readonly scope: string;
  readonly configs: string;
  readonly expires?: string;
}

/** The key `create` asks for, checked as `POST /keys` checks it; a mistake is a usage error. */
function createInput(options: CreateOptions, now: Date): CreateKeyInput {
  if (!(KEY_SCOPES as readonly string[]).includes(options.scope)) {
    throw new UsageError(
      `--scope must be one of ${KEY_SCOPES.join(', ')}; got "${options.scope}"`,
    );
  }
  const configs = options.configs.split(',').map((p) => p.trim());
  for (const pattern of configs) {
    const checked = NamePatternSchema.safeParse(pattern);
    if (!checked.success) {
      throw new UsageError(
        `--configs: "${pattern}" ${describeIssues(issuesOf(checked.error) ?? [])}`,
      );
    }
  }
  const parsed = CreateKeyInputSchema.safeParse({
    label: options.label,
    scope: options.scope,
    configs,
    ...(options.expires === undefined
      ? {}
      : { expiresAt: parseExpiry(options.expires, now) }),
  });
  if (!parsed.success) {
    throw new UsageError(describeIssues(issuesOf(parsed.error) ?? []));
  }
  return parsed.data;
}

const status = (key: AccessKey, now: Date): string =>
  key.revokedAt !== null
    ? 'revoked'
    : key.expiresAt !== null && Date.parse(key.expiresAt) <= now.getTime()
      ? 'expired'
      : 'active';

/** The keys' rows for {@link listing}: a heading, then one row per key. */
const keyRows = (keys: readonly AccessKey[], now: Date): string[][] => [
  ['ID', 'LABEL', 'SCOPE', 'CONFIGS', 'STATUS', 'EXPIRES', 'LAST USED'],
  ...keys.map((k) => [
    k.id,
    k.label,
    k.scope,
    k.configs.join(','),
    status(k, now),
    k.expiresAt ?? '-',
    k.lastUsedAt ?? '-',
  ]),
];

/** Adds `keys create`, `keys list` and `keys revoke` to the program. */
export function addKeysCommands(
  program: Command,
  io: CliIo,
  now: () => Date = () => new Date(),
): void {
  const keys = program
    .command('keys')
    .description(
      'create, list and revoke access keys (on the database directly)',
    );
  const database = '--database-url <url>';
  const databaseHelp =
    'the database (default: DATABASE_URL, else the server default)';

  keys
    .command('create')
    .description(
      'create a key; its secret is printed once, alone on the last line',
    )
    .requiredOption('--label <text>', 'who or what holds the key')
    .requiredOption(
      '--scope <scope>',
      `what it may do: ${KEY_SCOPES.join('|')}`,
    )
    .requiredOption(
      '--configs <patterns>',
      'config names it applies to, comma-separated; * matches any run (site-a/*,docs)',
    )
    .option('--expires <when>', 'a duration such as 30d, or an ISO date')
    .option(database, databaseHelp)
    .action(async (options: CreateOptions) => {
      const input = createInput(options, now());
      const key = await withKeys({ options, io, use: 'create' }, (service) =>
        service.create(input),
      );
      printSecretOnce(io, {
        notice:
          'The secret below is shown only now: store it safely; it cannot be shown again.',
        fields: {
          id: key.id,
          label: key.label,
          scope: key.scope,
          configs: key.configs.join(','),
          expires: key.expiresAt ?? 'never',
        },
        secret: key.secret,
      });
    });

  keys
    .command('list')
    .description('list every key (never a secret)')
    .option('--json', 'print a JSON array, for scripts')
    .option(database, databaseHelp)
    .action(async (options: DatabaseOption & { json?: boolean }) => {
      const all = await withKeys({ options, io, use: 'read' }, (service) =>
        service.list(),
      );
      io.stdout.write(
        listing(all, {
          json: options.json,
          empty: 'no keys',
          rows: (keys) => keyRows(keys, now()),
        }),
      );
    });

  keys
    .command('revoke')
    .description('revoke a key: every server refuses it within a second')
    .argument('<id>', 'the key id (as keys list shows it)')
    .option(database, databaseHelp)
    .action(async (id: string, options: DatabaseOption) => {
      const revoked = await withKeys({ options, io, use: 'read' }, (service) =>
        service.revoke(id),
      );
      if (!revoked) throw new Error(`no key has the id "${id}"`);
      io.stdout.write(`revoked ${id}\n`);
    });
}
