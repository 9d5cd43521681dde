/**
 * `linkconfig tags rename NAME OLD… NEW [--dry-run] [--json]`: a tag renamed (several: merged) in links and
 * in every expression, on a running server (`POST /configs/:name/tags/rename`) or on a database opened
 * directly (the server's own `TagService`): the same rule, preview and single revision either way.
 */
import type { Command } from 'commander';
import { TagRenameRequestSchema } from '@linkconfig/shared';
import type { TagRenameRequest, TagRenameResult } from '@linkconfig/shared';
import { describeIssues, issuesOf } from '../errors.js';
import { UsageError } from './cli-io.js';
import type { CliIo, ExitStatus } from './cli-io.js';
import { restTargetOf, serverJson } from './server-call.js';
import type { RestTarget } from './server-call.js';
import { addTargetOptions } from './transfer-commands.js';
import type { TargetOptions } from './transfer-commands.js';

interface RenameOptions extends TargetOptions {
  readonly dryRun?: boolean;
  readonly json?: boolean;
}

/** The rename on a running server, over REST. */
function renameOnServer(
  target: RestTarget,
  name: string,
  request: TagRenameRequest,
): Promise<TagRenameResult> {
  return serverJson<TagRenameResult>(
    target,
    {
      method: 'POST',
      path: `/configs/${encodeURIComponent(name)}/tags/rename`,
      body: request,
    },
    `renaming tags of "${name}"`,
  );
}

/** The rename on a database opened directly, through the server's services. */
async function renameInDatabase(
  url: string,
  name: string,
  request: TagRenameRequest,
): Promise<TagRenameResult> {
  const { withCliDatabase } = await import('./open-database.js');
  const { createServices } = await import('../services/services.js');
  return withCliDatabase(
    { url, use: 'read', what: `renaming tags of "${name}"` },
    (repository) =>
      createServices({ repository }).tags.rename(name, request, {}),
  );
}

/** The preview and outcome in lines for a person. */
export function describeRename(name: string, result: TagRenameResult): string {
  const { preview } = result;
  const lines = [
    `${preview.from.join(', ')} → ${preview.to} in "${name}": ${preview.links.length} link(s), ${preview.expressions.length} expression(s)`,
  ];
  for (const change of preview.expressions) {
    lines.push(`  ${change.where}: ${change.before}  →  ${change.after}`);
  }
  for (const macro of preview.macros) {
    lines.push(
      `  macro ${macro.name}: ${macro.before.length} → ${macro.after.length} link(s)${macro.flagged ? `  FLAGGED: ${macro.reason ?? ''}` : ''}`,
    );
  }
  for (const note of preview.notes) lines.push(`  note: ${note}`);
  lines.push(
    result.stored
      ? `stored as revision ${String(result.rev)} (ETag ${result.etag ?? ''})`
      : 'nothing stored (dry run, or nothing to change)',
  );
  return `${lines.join('\n')}\n`;
}

/** Adds `tags rename` to the program. */
export function addTagsCommands(
  program: Command,
  io: CliIo,
  exit: ExitStatus,
): void {
  const tags = program
    .command('tags')
    .description('manage the tags of a config');
  addTargetOptions(
    tags
      .command('rename')
      .description(
        'rename a tag, or merge several into the last one, in links and in every expression that names it (one revision)',
      )
      .argument('<name>', 'the config')
      .argument(
        '<tags...>',
        'OLD… NEW: the tags to rename, then the tag they become',
      )
      .option('--dry-run', 'show what would change; store nothing')
      .option('--json', 'print the answer as JSON'),
  ).action(async (name: string, names: string[], options: RenameOptions) => {
    if (names.length < 2)
      throw new UsageError('tags rename needs OLD… NEW: at least two tags');
    const parsed = TagRenameRequestSchema.safeParse({
      from: names.slice(0, -1),
      to: names.at(-1),
      ...(options.dryRun === true ? { dryRun: true } : {}),
    });
    if (!parsed.success)
      throw new UsageError(describeIssues(issuesOf(parsed.error) ?? []));
    if (
      options.databaseUrl !== undefined &&
      (options.server ?? options.key) !== undefined
    ) {
      throw new UsageError(
        '--database-url cannot be used with --server or --key',
      );
    }
    const result =
      options.databaseUrl === undefined
        ? await renameOnServer(restTargetOf(options, io.env), name, parsed.data)
        : await renameInDatabase(options.databaseUrl, name, parsed.data);
    io.stdout.write(
      options.json === true
        ? `${JSON.stringify(result, null, 2)}\n`
        : describeRename(name, result),
    );
    if (result.preview.macros.some((m) => m.flagged)) exit.code = 1;
  });
}
