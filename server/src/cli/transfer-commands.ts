/**
 * `linkconfig import` and `linkconfig export` (docs/import-export.md): the shared converters on one side,
 * a running server or a database on the other (`config-endpoint.ts`). Import reads the file, reads the
 * config and its version, plans (the report), and writes only over that version.
 */
import { readFile, stat, writeFile } from 'node:fs/promises';
import {
  TRANSFER_FORMATS,
  decodeImportBytes,
  exportLosses,
  formatOfFileName,
  importSizeProblem,
  planImport,
  readImport,
  splitByTopFolder,
  writeBookmarksHtml,
  writeCsv,
  writeJson,
} from '@linkconfig/shared';
import type {
  ImportMode,
  ImportReport,
  ParsedImport,
  TransferFormat,
} from '@linkconfig/shared';
import { Option } from 'commander';
import type { Command } from 'commander';
import { restEndpoint } from './config-endpoint.js';
import { restTargetOf } from './server-call.js';
import type { ConfigEndpoint } from './config-endpoint.js';
import { formatReport } from './import-report.js';
import { NO_PROGRESS, progressOn } from './progress.js';
import { UsageError } from './cli-io.js';
import type { CliIo, ExitStatus } from './cli-io.js';
import type { DatabaseUse } from './open-database.js';

/** From how many links on an import a terminal gets a progress bar. */
const PROGRESS_MIN_LINKS = 2000;

/** Where a command finds configs: the flags every transfer command shares. */
export interface TargetOptions {
  readonly server?: string;
  readonly key?: string;
  readonly databaseUrl?: string;
}

export function addTargetOptions(command: Command): Command {
  return command
    .option(
      '--server <url>',
      'the running server to talk to (default LINKCONFIG_SERVER or http://localhost:3000)',
    )
    .option(
      '--key <key>',
      'the bearer key for the server (default LINKCONFIG_KEY)',
    )
    .option(
      '--database-url <url>',
      'work on this database directly instead of a server (sqlite:<path>, postgres://…)',
    );
}

/** Where the configs are; `use` says whether a database opened directly must exist already. */
async function openEndpoint(
  options: TargetOptions,
  { io, use }: { io: CliIo; use: DatabaseUse },
): Promise<ConfigEndpoint> {
  if (options.databaseUrl !== undefined) {
    if (options.server !== undefined || options.key !== undefined) {
      throw new UsageError(
        '--database-url cannot be used with --server or --key',
      );
    }
    // The server's storage and services load only when a database is used directly.
    const { databaseEndpoint } = await import('./database-endpoint.js');
    return databaseEndpoint(options.databaseUrl, use);
  }
  return restEndpoint(restTargetOf(options, io.env));
}

interface ImportOptions extends TargetOptions {
  readonly into: string;
  readonly format?: TransferFormat;
  readonly mode: ImportMode;
  readonly dryRun?: boolean;
  readonly folders: boolean;
  readonly configPerFolder?: boolean;
  readonly json?: boolean;
  /** Exit 1 when links were skipped (default: 0, the report lists them). */
  readonly strict?: boolean;
}

/** Imports one parsed file into the config `into`: read it with its version, plan, write over that version. */
async function importInto(
  endpoint: ConfigEndpoint,
  { into, parsed }: { into: string; parsed: ParsedImport },
  { options, io }: { options: ImportOptions; io: CliIo },
): Promise<{ report: ImportReport; written: boolean }> {
  const current = await endpoint.read(into);
  const total = parsed.candidates.length;
  // Quiet when not on a terminal, and for files that take no time.
  const progress =
    total >= PROGRESS_MIN_LINKS
      ? progressOn(io, { lines: false })
      : NO_PROGRESS;
  progress.start('importing', total);
  const plan = planImport(parsed, {
    mode: options.mode,
    existing: current?.config ?? null,
    foldersAsTags: options.folders,
    onProgress: (done) => progress.update(done, `${done}/${total} links`),
  });
  progress.stop();
  // Nothing new (the same file again): no write, so the stored version and its timestamps stay.
  const unchanged =
    current !== null &&
    JSON.stringify(current.config) === JSON.stringify(plan.config);
  if (options.dryRun === true || unchanged) {
    return { report: plan.report, written: false };
  }
  const answer = await endpoint.write(into, plan.config, current?.etag ?? null);
  if (!answer.ok) {
    throw new Error(
      `"${into}" changed while the file was read (the write found another version); nothing was written, run the import again`,
    );
  }
  return { report: plan.report, written: true };
}

async function runImport(
  file: string,
  options: ImportOptions,
  { io, exit }: { io: CliIo; exit: ExitStatus },
): Promise<void> {
  const size = await stat(file).then(
    (info) => info.size,
    () => {
      throw new UsageError(`cannot read the file ${file}`);
    },
  );
  const tooBig = importSizeProblem(size);
  if (tooBig !== null) throw new Error(tooBig);
  // Decoded here rather than by readFile: bytes that are not UTF-8 are reported, not hidden.
  const { text, malformedLines } = decodeImportBytes(await readFile(file));
  const read = readImport(text, {
    format: options.format,
    fileName: file,
    malformedLines,
  });
  if (!read.ok) throw new Error(`${file}: ${read.error}`);
  // One config per top folder: "<into>-<folder>", links outside every folder into "<into>".
  const parts =
    options.configPerFolder === true
      ? splitByTopFolder(read.parsed).map((part) => ({
          into:
            part.suffix === ''
              ? options.into
              : `${options.into}-${part.suffix}`,
          parsed: part.parsed,
        }))
      : [{ into: options.into, parsed: read.parsed }];
  const endpoint = await openEndpoint(options, { io, use: 'create' });
  try {
    const done: (ImportReport & { into: string; written: boolean })[] = [];
    for (const { into, parsed } of parts) {
      const { report, written } = await importInto(
        endpoint,
        { into, parsed },
        { options, io },
      );
      done.push({ ...report, into, written });
      if (options.json !== true) {
        const outcome = written
          ? 'written'
          : options.dryRun === true
            ? 'dry run'
            : 'unchanged';
        io.stdout.write(formatReport(report, into, outcome));
      }
      // Skipped links are reported, not failed: every real browser export has some (`place:` queries,
      // `javascript:` bookmarklets), and a script under `set -e` must not stop on them unless it asks to.
      if (report.skipped.length > 0 && options.strict === true) exit.code = 1;
    }
    if (options.json === true) {
      const value = options.configPerFolder === true ? done : done[0];
      io.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
    }
  } finally {
    await endpoint.close();
  }
}

interface ExportOptions extends TargetOptions {
  readonly format?: TransferFormat;
  readonly output?: string;
  /** Tags that become folders (comma-separated), or `false` (`--no-folders`): none. */
  readonly folders?: string | boolean;
}

/** The bookmark folders an export asks for: default every tag, `--folders a,b` those, `--no-folders` none. */
function folderTagsOf(
  folders: ExportOptions['folders'],
): readonly string[] | undefined {
  if (folders === undefined || folders === true) return undefined;
  if (folders === false) return [];
  return folders
    .split(',')
    .map((tag) => tag.trim())
    .filter((tag) => tag !== '');
}

async function runExport(
  name: string,
  options: ExportOptions,
  io: CliIo,
): Promise<void> {
  const format =
    options.format ??
    (options.output === undefined ? null : formatOfFileName(options.output)) ??
    'json';
  const endpoint = await openEndpoint(options, { io, use: 'read' });
  let text: string;
  try {
    const current = await endpoint.read(name);
    if (current === null) throw new Error(`there is no config "${name}"`);
    const folderTags = folderTagsOf(options.folders);
    const html = {
      title: name,
      ...(folderTags === undefined ? {} : { folderTags }),
    };
    // Said before the file is written, on stderr (stdout may be the file).
    const losses = exportLosses(current.config, format, html);
    if (losses.length > 0) {
      io.stderr.write(
        `${format === 'html' ? 'bookmarks HTML' : format.toUpperCase()} does not carry all of "${name}":\n${losses.map((loss) => `  - ${loss}\n`).join('')}`,
      );
    }
    text =
      format === 'html'
        ? writeBookmarksHtml(current.config, html)
        : format === 'csv'
          ? writeCsv(current.config)
          : writeJson(current.config);
  } finally {
    await endpoint.close();
  }
  if (options.output === undefined) io.stdout.write(text);
  else await writeFile(options.output, text);
}

const formatOption = (what: string): Option =>
  new Option('--format <format>', what).choices(TRANSFER_FORMATS);

/** Adds `import` and `export` to the program. */
export function addTransferCommands(
  program: Command,
  io: CliIo,
  exit: ExitStatus,
): void {
  addTargetOptions(
    program
      .command('import')
      .description(
        'import links from a bookmarks HTML, CSV or JSON file into a config (skipped links are reported; --strict makes them exit 1)',
      )
      .argument('<file>', 'the file to import')
      .requiredOption(
        '--into <config>',
        'the config to import into (created when missing)',
      )
      .addOption(
        formatOption(
          'the file format (default: from the file name, else from its content)',
        ),
      )
      .addOption(
        new Option(
          '--mode <mode>',
          'merge into the config, or replace its links',
        )
          .choices(['merge', 'replace'])
          .default('merge'),
      )
      .option('--dry-run', 'print the report, write nothing')
      .option('--no-folders', 'do not turn bookmark folders into tags')
      .option(
        '--config-per-folder',
        'bookmarks: a config per top folder, named <config>-<folder> (links outside folders go into <config>)',
      )
      .option('--json', 'print the report as JSON')
      .option(
        '--strict',
        'exit 1 when links were skipped (they are never written either way)',
      ),
  ).action((file: string, options: ImportOptions) =>
    runImport(file, options, { io, exit }),
  );
  addTargetOptions(
    program
      .command('export')
      .description(
        'export a config as JSON (for a site), bookmarks HTML or CSV',
      )
      .argument('<config>', 'the config to export')
      .addOption(formatOption('the format (default: from -o, else json)'))
      .option('-o, --output <file>', 'write to this file instead of stdout')
      .option(
        '--folders <tags>',
        'bookmarks HTML: only these tags (comma-separated) become folders (default: each link in the folder of its first tag)',
      )
      .option(
        '--no-folders',
        'bookmarks HTML: no folders, links in the config order',
      ),
  ).action((name: string, options: ExportOptions) =>
    runExport(name, options, io),
  );
}
