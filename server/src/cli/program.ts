/**
 * The `linkconfig` command: `serve` (what `linkconfig-server` does) and the operator's commands, which
 * work on the database directly or on a running server. Each group of commands lives in its own module
 * of this folder and is added here; exit codes are the same for all: 0 done, 1 done with a problem the
 * command reports, 2 a usage mistake (with the reason on stderr, like the server's settings).
 */
import { Command, CommanderError } from 'commander';
import { SettingsError, refusedSettings } from '../config/settings.js';
import { SERVER_VERSION } from '../version.js';
import { addBackupCommands } from './backup-commands.js';
import { addCheckCommands } from './check-commands.js';
import { UsageError } from './cli-io.js';
import type { CliIo, ExitStatus } from './cli-io.js';
import { addHooksCommands } from './hooks-commands.js';
import { addKeysCommands } from './keys-commands.js';
import { addPublishCommands } from './publish-commands.js';
import { addTagsCommands } from './tags-commands.js';
import { addTransferCommands } from './transfer-commands.js';

export { UsageError } from './cli-io.js';
export type { CliIo, ExitStatus } from './cli-io.js';

/** Builds the program; each command's action reads `io` instead of the process, and may set `exit.code`. */
export function createProgram(
  io: CliIo,
  exit: ExitStatus = { code: 0 },
): Command {
  const program = new Command('linkconfig')
    .description(
      'The Link Config Service: serve it, manage its keys, webhooks and what sites see, imports, exports and backups, and check its links',
    )
    .version(SERVER_VERSION, '-V, --version', 'print the version')
    .enablePositionalOptions()
    .exitOverride()
    .configureOutput({
      writeOut: (text) => io.stdout.write(text),
      writeErr: (text) => io.stderr.write(text),
    });
  program
    .command('serve')
    .description(
      'start the server (the same flags and variables as linkconfig-server; serve --help lists them)',
    )
    .helpOption(false)
    .passThroughOptions()
    .allowUnknownOption()
    .argument('[flags...]', 'server flags such as --port 3000')
    // Loaded when used: the server's modules would slow down every other command's start.
    .action(async (flags: string[]) => {
      const { serve } = await import('../serve.js');
      const command = 'linkconfig serve';
      try {
        await serve(flags, { command, stdout: io.stdout });
      } catch (error) {
        // The reason alone (exit 2), not the whole help that would scroll it away.
        if (error instanceof SettingsError)
          throw new UsageError(refusedSettings(error, command).trimEnd());
        throw error;
      }
    });
  addTransferCommands(program, io, exit);
  addBackupCommands(program, io);
  addKeysCommands(program, io);
  addHooksCommands(program, io);
  addCheckCommands(program, io, exit);
  addTagsCommands(program, io, exit);
  addPublishCommands(program, io);
  return program;
}

/** Runs the command line `argv` (without node and the script); resolves with the exit code. */
export async function runCli(
  argv: readonly string[],
  io: CliIo,
): Promise<number> {
  const exit: ExitStatus = { code: 0 };
  const program = createProgram(io, exit);
  try {
    await program.parseAsync([...argv], { from: 'user' });
    return exit.code;
  } catch (error) {
    if (error instanceof CommanderError) {
      // Help and version are answers, not mistakes; commander has already printed what it had to say.
      return error.exitCode === 0 ? 0 : 2;
    }
    if (error instanceof UsageError) {
      io.stderr.write(`linkconfig: ${error.message}\n`);
      return 2;
    }
    io.stderr.write(
      `linkconfig: ${error instanceof Error ? error.message : String(error)}\n`,
    );
    return 1;
  }
}
