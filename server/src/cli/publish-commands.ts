/**
 * `linkconfig publish NAME [--rev N] [--origins a,b | --any-origin] [--hide-broken | --no-hide-broken]` and
 * `linkconfig unpublish NAME`
 * (docs/publishing.md): a revision pinned as the version sites see (an older one rolls back), on a
 * running server (`POST`/`DELETE /configs/:name/publish`, with a key of `publish` scope) or on a database
 * opened directly (the server's own `PublishService`): the same rules either way.
 */
import type { Command } from 'commander';
import { PublishInputSchema } from '@linkconfig/shared';
import type {
  PublishInput,
  PublishRecord,
  UnpublishOutput,
} from '@linkconfig/shared';
import { describeIssues, issuesOf } from '../errors.js';
import type { PublishService } from '../services/publish-service.js';
import { UsageError } from './cli-io.js';
import type { CliIo } from './cli-io.js';
import { restTargetOf, serverJson } from './server-call.js';
import type { RestTarget } from './server-call.js';
import { addTargetOptions } from './transfer-commands.js';
import type { TargetOptions } from './transfer-commands.js';

interface PublishOptions extends TargetOptions {
  readonly rev?: string;
  readonly origins?: string;
  readonly anyOrigin?: boolean;
  /** `--hide-broken` true, `--no-hide-broken` false, neither: keep what the record says. */
  readonly hideBroken?: boolean;
  readonly ifMatch?: string;
  readonly json?: boolean;
}

/** Where the publish happens: a running server, or a database opened directly. */
type Target = { readonly rest: RestTarget } | { readonly databaseUrl: string };

function targetOf(options: TargetOptions, io: CliIo): Target {
  if (options.databaseUrl === undefined) {
    return { rest: restTargetOf(options, io.env) };
  }
  if ((options.server ?? options.key) !== undefined) {
    throw new UsageError(
      '--database-url cannot be used with --server or --key',
    );
  }
  return { databaseUrl: options.databaseUrl };
}

/** Runs `work` on the publish service of a database opened directly; domain errors name `what`. */
async function inDatabase<T>(
  url: string,
  what: string,
  work: (publish: PublishService) => Promise<T>,
): Promise<T> {
  const { withCliDatabase } = await import('./open-database.js');
  const { createServices } = await import('../services/services.js');
  return withCliDatabase({ url, use: 'read', what }, (repository) =>
    work(createServices({ repository }).publish),
  );
}

const publishPath = (name: string): string =>
  `/configs/${encodeURIComponent(name)}/publish`;

/** The publish input of the command line, checked by the API's own schema (a mistake: exit 2). */
export function publishInputOf(
  name: string,
  options: PublishOptions,
): PublishInput {
  if (options.origins !== undefined && options.anyOrigin === true) {
    throw new UsageError('--origins and --any-origin cannot be used together');
  }
  const origins =
    options.anyOrigin === true
      ? null
      : options.origins
          ?.split(',')
          .map((o) => o.trim())
          .filter((o) => o !== '');
  const parsed = PublishInputSchema.safeParse({
    name,
    ...(options.rev === undefined ? {} : { rev: Number(options.rev) }),
    ...(origins === undefined ? {} : { origins }),
    ...(options.hideBroken === undefined
      ? {}
      : { hideBroken: options.hideBroken }),
    ...(options.ifMatch === undefined ? {} : { ifMatch: options.ifMatch }),
  });
  if (!parsed.success) {
    throw new UsageError(describeIssues(issuesOf(parsed.error) ?? []));
  }
  return parsed.data;
}

async function publish(
  target: Target,
  input: PublishInput,
): Promise<PublishRecord> {
  const what = `publishing "${input.name}"`;
  if ('databaseUrl' in target) {
    return inDatabase(target.databaseUrl, what, (service) =>
      service.publish(input.name, input),
    );
  }
  const { name, ifMatch, ...body } = input;
  return serverJson<PublishRecord>(
    target.rest,
    {
      method: 'POST',
      path: publishPath(name),
      body,
      ...(ifMatch === undefined ? {} : { headers: { 'If-Match': ifMatch } }),
    },
    what,
  );
}

async function unpublish(
  target: Target,
  name: string,
): Promise<UnpublishOutput> {
  const what = `unpublishing "${name}"`;
  if ('databaseUrl' in target) {
    return inDatabase(target.databaseUrl, what, (service) =>
      service.unpublish(name),
    );
  }
  return serverJson<UnpublishOutput>(
    target.rest,
    { method: 'DELETE', path: publishPath(name) },
    what,
  );
}

/** A publish record in one line for a person. */
export function describePublish(record: PublishRecord): string {
  const sites =
    record.origins === null
      ? 'any origin'
      : record.origins.length === 0
        ? 'no origin (no page of any site)'
        : record.origins.join(', ');
  const links = record.hideBroken ? ', leaving out links confirmed broken' : '';
  return `published "${record.name}" revision ${record.rev} (ETag ${record.etag}) for ${sites}${links}\n`;
}

/** Adds `publish` and `unpublish` to the program. */
export function addPublishCommands(program: Command, io: CliIo): void {
  addTargetOptions(
    program
      .command('publish')
      .description(
        'publish a revision of a config (default: the current one) as the version sites see; an older --rev rolls back',
      )
      .argument('<name>', 'the config')
      .option('--rev <n>', 'the revision to publish (default: the head)')
      .option(
        '--origins <list>',
        'comma-separated site origins whose pages may read it (https://site-a.example,…); default: those already set',
      )
      .option('--any-origin', 'let pages of any site read it')
      .option(
        '--hide-broken',
        'serve it without the links the link checker confirmed broken or unreachable',
      )
      .option(
        '--no-hide-broken',
        'serve every link of it again; neither option: keep the current choice',
      )
      .option(
        '--if-match <etag>',
        "publish only if the head's ETag is still this one (the draft you reviewed)",
      )
      .option('--json', 'print the publish record as JSON'),
  ).action(async (name: string, options: PublishOptions) => {
    const input = publishInputOf(name, options);
    const record = await publish(targetOf(options, io), input);
    io.stdout.write(
      options.json === true
        ? `${JSON.stringify(record, null, 2)}\n`
        : describePublish(record),
    );
  });
  addTargetOptions(
    program
      .command('unpublish')
      .description('take a config off /published (its draft stays)')
      .argument('<name>', 'the config')
      .option('--json', 'print the answer as JSON'),
  ).action(async (name: string, options: PublishOptions) => {
    const result = await unpublish(targetOf(options, io), name);
    io.stdout.write(
      options.json === true
        ? `${JSON.stringify(result, null, 2)}\n`
        : result.rev === null
          ? `"${name}" was not published\n`
          : `unpublished "${name}" (it was revision ${result.rev})\n`,
    );
  });
}
