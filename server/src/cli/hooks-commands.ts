/**
 * `linkconfig hooks add|list|remove|log`: webhooks managed on the database directly (`--database-url` or
 * `DATABASE_URL`), as keys are. The rules of a hook are the hook service's, shared with `/hooks`; a
 * running server delivers a hook made here within its poll interval (5 s).
 */
import type { Command } from 'commander';
import {
  CreateHookInputSchema,
  HOOK_EVENTS,
  HOOK_LOG_LIMITS,
} from '@linkconfig/shared';
import type { Hook, HookDelivery } from '@linkconfig/shared';
import { describeIssues, issuesOf } from '../errors.js';
import { HookService } from '../hooks/hook-service.js';
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

/** Runs `work` on the hooks of the database (used as `use` says), closing it afterwards. */
async function withHooks<T>(
  {
    options,
    io,
    use,
  }: { options: DatabaseOption; io: CliIo; use: DatabaseUse },
  work: (hooks: HookService) => Promise<T>,
): Promise<T> {
  return withCliDatabase(
    { url: databaseUrlOf(options, io), use },
    (repository) =>
      work(new HookService({ store: repository.hooks, log: repository })),
  );
}

const list = (text: string): string[] =>
  text
    .split(',')
    .map((p) => p.trim())
    .filter((p) => p !== '');

const hookRows = (hooks: readonly Hook[]): string[][] => [
  ['ID', 'URL', 'EVENTS', 'CONFIGS', 'CURSOR', 'FAILING'],
  ...hooks.map((h) => [
    h.id,
    h.url,
    h.events.join(','),
    h.configs.join(','),
    String(h.cursor),
    h.failingSince === null
      ? '-'
      : `${h.attempts} attempts since ${h.failingSince} (${h.lastError ?? '?'})`,
  ]),
];

const deliveryRows = (deliveries: readonly HookDelivery[]): string[][] => [
  ['AT', 'EVENT', 'TYPE', 'ATTEMPT', 'STATUS', 'RESULT', 'MS'],
  ...deliveries.map((d) => [
    d.at,
    String(d.eventId),
    d.type,
    String(d.attempt),
    d.status === null ? '-' : String(d.status),
    d.error ?? 'delivered',
    String(d.durationMs),
  ]),
];

/** Adds `hooks add`, `hooks list`, `hooks remove` and `hooks log` to the program. */
export function addHooksCommands(program: Command, io: CliIo): void {
  const hooks = program
    .command('hooks')
    .description(
      'add, list and remove webhooks, and read their delivery logs (on the database directly)',
    );
  const database = '--database-url <url>';
  const databaseHelp =
    'the database (default: DATABASE_URL, else the server default)';

  hooks
    .command('add')
    .description(
      'add a webhook; its signing secret is printed once, alone on the last line',
    )
    .argument('<url>', 'where each event is POSTed (http or https)')
    .requiredOption(
      '--events <kinds>',
      `kinds of events, comma-separated: ${HOOK_EVENTS.join(',')}`,
    )
    .requiredOption(
      '--configs <patterns>',
      'config names it is told about, comma-separated; * matches any run (site-a/*,docs)',
    )
    .option(database, databaseHelp)
    .action(
      async (
        url: string,
        options: DatabaseOption & { events: string; configs: string },
      ) => {
        const parsed = CreateHookInputSchema.safeParse({
          url,
          events: list(options.events),
          configs: list(options.configs),
        });
        if (!parsed.success)
          throw new UsageError(describeIssues(issuesOf(parsed.error) ?? []));
        const hook = await withHooks(
          { options, io, use: 'create' },
          (service) => service.create(parsed.data),
        );
        printSecretOnce(io, {
          notice:
            'The signing secret below is shown only now: give it to the receiver to verify deliveries.',
          fields: {
            id: hook.id,
            url: hook.url,
            events: hook.events.join(','),
            configs: hook.configs.join(','),
          },
          secret: hook.secret,
        });
      },
    );

  hooks
    .command('list')
    .description('list every webhook and where it stands (never a secret)')
    .option('--json', 'print a JSON array, for scripts')
    .option(database, databaseHelp)
    .action(async (options: DatabaseOption & { json?: boolean }) => {
      const all = await withHooks({ options, io, use: 'read' }, (service) =>
        service.list(),
      );
      io.stdout.write(
        listing(all, { json: options.json, empty: 'no hooks', rows: hookRows }),
      );
    });

  hooks
    .command('remove')
    .description('remove a webhook and its delivery log')
    .argument('<id>', 'the hook id (as hooks list shows it)')
    .option(database, databaseHelp)
    .action(async (id: string, options: DatabaseOption) => {
      const removed = await withHooks({ options, io, use: 'read' }, (service) =>
        service.remove(id),
      );
      if (!removed) throw new Error(`no hook has the id "${id}"`);
      io.stdout.write(`removed ${id}\n`);
    });

  hooks
    .command('log')
    .description("a webhook's latest delivery attempts, newest first")
    .argument('<id>', 'the hook id (as hooks list shows it)')
    .option(
      '--limit <n>',
      `attempts shown (default ${HOOK_LOG_LIMITS.defaultLimit}, at most ${HOOK_LOG_LIMITS.maxLimit})`,
    )
    .option('--json', 'print a JSON array, for scripts')
    .option(database, databaseHelp)
    .action(
      async (
        id: string,
        options: DatabaseOption & { json?: boolean; limit?: string },
      ) => {
        const limit = Number(options.limit ?? HOOK_LOG_LIMITS.defaultLimit);
        if (
          !Number.isInteger(limit) ||
          limit < 1 ||
          limit > HOOK_LOG_LIMITS.maxLimit
        ) {
          throw new UsageError(
            `--limit must be a whole number from 1 to ${HOOK_LOG_LIMITS.maxLimit}; got "${options.limit}"`,
          );
        }
        const deliveries = await withHooks(
          { options, io, use: 'read' },
          (service) => service.deliveries(id, limit),
        );
        if (deliveries === null) throw new Error(`no hook has the id "${id}"`);
        io.stdout.write(
          listing(deliveries, {
            json: options.json,
            empty: 'no deliveries yet',
            rows: deliveryRows,
          }),
        );
      },
    );
}
