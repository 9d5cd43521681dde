/** Runs the `linkconfig` command in-process for tests, keeping what it printed. */
import { PassThrough } from 'node:stream';
import { runCli } from '../src/cli/program.js';
import type { Clock } from '../src/clock.js';

export interface CliRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

export async function runLinkconfig(
  argv: string[],
  env: Record<string, string> = {},
  options: { tty?: boolean; clock?: Clock } = {},
): Promise<CliRun> {
  const stdout = Object.assign(new PassThrough(), {
    isTTY: options.tty === true,
  });
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
  const code = await runCli(argv, {
    env,
    stdout,
    stderr,
    ...(options.clock === undefined ? {} : { clock: options.clock }),
  });
  return { code, stdout: out, stderr: err };
}
