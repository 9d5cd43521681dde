import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { runCli } from './program.js';

/** Runs the command line in-process and keeps what it printed. */
async function run(
  argv: string[],
): Promise<{ code: number; stdout: string; stderr: string }> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
  const code = await runCli(argv, { env: {}, stdout, stderr });
  return { code, stdout: out, stderr: err };
}

describe('the linkconfig command', () => {
  it('lists its commands with --help and exits 0', async () => {
    const { code, stdout } = await run(['--help']);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^Usage: linkconfig /);
    expect(stdout).toMatch(/\n\s+serve\b/);
  });

  it('exits 2 with the reason for an unknown command', async () => {
    const { code, stderr } = await run(['serv']);
    expect(code).toBe(2);
    expect(stderr).toMatch(/unknown command 'serv'/);
  });
});
