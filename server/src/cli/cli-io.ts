/** What every command of `linkconfig` shares: its input and output, and the usage mistake. */

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
