/**
 * Running commands for the packaging test: output captured (and shown when a command fails), progress
 * lines with the time since the start on stderr so a long install is visibly alive.
 */
import { spawn } from 'node:child_process';

const started = Date.now();

/** Prints one progress line: `[packaging 12.3s] message`. */
export function progress(message: string): void {
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  process.stderr.write(`[packaging ${seconds}s] ${message}\n`);
}

/** What {@link run} needs besides the command. */
export interface RunOptions {
  readonly cwd: string;
  /** Added to this process's environment. */
  readonly env?: Readonly<Record<string, string>>;
  /** Resolve with a non-zero exit code instead of rejecting (for compilations expected to fail). */
  readonly allowFailure?: boolean;
}

/** The outcome of a finished command. */
export interface RunResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs `command args` to its end; rejects with the tail of its output when it fails. */
export function run(
  command: string,
  args: readonly string[],
  options: RunOptions,
): Promise<RunResult> {
  const shown = [command, ...args].join(' ');
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: { ...process.env, ...options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code, signal) => {
      const result = { code: code ?? 1, stdout, stderr };
      if (result.code === 0 || options.allowFailure === true) {
        resolve(result);
        return;
      }
      const tail = `${stdout}\n${stderr}`.trim().split('\n').slice(-40);
      reject(
        new Error(
          `"${shown}" in ${options.cwd} failed (${signal ?? `exit ${code}`}):\n${tail.join('\n')}`,
        ),
      );
    });
  });
}
