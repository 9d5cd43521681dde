/** What every command of `linkconfig` shares: its surroundings, its exit status and its usage mistakes. */
import { DEFAULT_DATABASE_URL } from '../config/settings.js';
import { parseDatabaseUrl } from '../config/database-url.js';
import type { Clock } from '../clock.js';

/** A mistake in how a command was called: the command exits with 2 and says why. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/** What a command's run needs from its surroundings, so tests can run it in-process. */
export interface CliIo {
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly stdout: NodeJS.WritableStream & { readonly isTTY?: boolean };
  readonly stderr: NodeJS.WritableStream;
  /** The clock of commands that wait (`check`'s politeness); default the system's. Tests pass their own. */
  readonly clock?: Clock;
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

/** An aligned table, one line per row (the first row is the heading). */
export function alignedTable(rows: readonly (readonly string[])[]): string {
  const widths = rows[0]?.map((_, i) =>
    Math.max(...rows.map((r) => (r[i] ?? '').length)),
  );
  return rows
    .map((r) =>
      r
        .map((cell, i) => cell.padEnd(widths?.[i] ?? 0))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

/**
 * What a `list` command prints: a JSON array for scripts (`--json`), else `empty` when there is nothing,
 * else the rows as an {@link alignedTable}.
 */
export function listing<T>(
  items: readonly T[],
  how: {
    readonly json: boolean | undefined;
    readonly empty: string;
    readonly rows: (items: readonly T[]) => readonly (readonly string[])[];
  },
): string {
  if (how.json === true) return `${JSON.stringify(items, null, 2)}\n`;
  if (items.length === 0) return `${how.empty}\n`;
  return `${alignedTable(how.rows(items))}\n`;
}

/**
 * Prints a new secret that is shown only once: the notice on stderr, then the `name: value` lines and the
 * secret itself (its own last line, for scripts) on stdout.
 */
export function printSecretOnce(
  io: CliIo,
  shown: {
    readonly notice: string;
    readonly fields: Readonly<Record<string, string>>;
    readonly secret: string;
  },
): void {
  const { notice, fields, secret } = shown;
  io.stderr.write(`${notice}\n`);
  io.stdout.write(
    [...Object.entries(fields).map(([k, v]) => `${k}: ${v}`), secret].join(
      '\n',
    ) + '\n',
  );
}
