/** What every command of `linkconfig` shares: its surroundings, its exit status and its usage mistakes. */
import { DEFAULT_DATABASE_URL } from '../config/settings.js';
import { parseDatabaseUrl } from '../config/database-url.js';

/** A mistake in how a command was called: the command exits with 2 and says why. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/** What a command's run needs from its surroundings, so tests can run it in-process. */
export interface CliIo {
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly stdout: NodeJS.WritableStream & { readonly isTTY?: boolean };
  readonly stderr: NodeJS.WritableStream;
}

/** The exit code a command asks for when it finishes without an error (1: done, with a reported problem). */
export interface ExitStatus {
  code: number;
}

/**
 * The database a command works on: `--database-url`, else `DATABASE_URL`, else the server's default (an
 * empty value counts as unset); a malformed one is a {@link UsageError}.
 */
export function databaseUrlOf(
  options: { readonly databaseUrl?: string },
  io: CliIo,
): string {
  const url = options.databaseUrl ?? io.env['DATABASE_URL'] ?? '';
  const chosen = url === '' ? DEFAULT_DATABASE_URL : url;
  try {
    parseDatabaseUrl(chosen);
  } catch (error) {
    throw new UsageError(
      error instanceof Error ? error.message : String(error),
    );
  }
  return chosen;
}
