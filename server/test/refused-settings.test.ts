import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const main = fileURLToPath(new URL('../src/main.ts', import.meta.url));
/** Makes tsx resolve the workspace packages to their sources, as the tests do. */
const tsconfig = fileURLToPath(
  new URL('../../tsconfig.spec.json', import.meta.url),
);
const dir = mkdtempSync(join(tmpdir(), 'linkconfig-settings-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs the server's entry point with `env`; resolves with its exit code and output once it exits. */
function run(
  env: Record<string, string>,
): Promise<{ code: number | null; stderr: string; stdout: string }> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', main, '--port', '0', '--host', '127.0.0.1'],
    {
      env: {
        ...process.env,
        TSX_TSCONFIG_PATH: tsconfig,
        DATABASE_URL: `sqlite:${join(dir, 'never.db')}`,
        LOG_LEVEL: 'info',
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  // A server that did start is a failure of the test: stop it so the test ends.
  const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
  return new Promise((resolve) =>
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stderr, stdout });
    }),
  );
}

// Each case starts a process; they run side by side.
describe.concurrent(
  'the server refuses settings that would silently do the wrong thing',
  () => {
    it.each([
      [
        'an API token with whitespace',
        { API_TOKEN: 'correct horse SECRET' },
        'API_TOKEN: must not contain whitespace',
      ],
      [
        'a read token with a trailing newline',
        { API_TOKEN: 'writer', READ_TOKEN: 'reader-SECRET\n' },
        'READ_TOKEN: must not contain whitespace',
      ],
      [
        'a read token equal to the API token',
        { API_TOKEN: 'same-SECRET', READ_TOKEN: 'same-SECRET' },
        'READ_TOKEN: must differ from API_TOKEN',
      ],
      [
        'a switch that is neither on nor off',
        { RATE_LIMIT: 'sometimes' },
        'RATE_LIMIT (--rate-limit): must be on or off',
      ],
    ])('exits with code 2 on %s, saying why', async (_, env, message) => {
      const result = await run(env);
      expect(result.code).toBe(2);
      expect(result.stderr).toContain('invalid settings');
      expect(result.stderr).toContain(message);
      // The reason alone: the help would scroll it out of sight.
      expect(result.stderr).not.toContain('Usage:');
      expect(result.stderr).toContain(
        '(linkconfig-server --help lists every setting)',
      );
      // It stopped before opening anything: no database, no "listening".
      expect(result.stdout).not.toContain('listening');
      expect(existsSync(join(dir, 'never.db'))).toBe(false);
      // The token's value is not echoed back.
      expect(result.stderr).not.toContain('SECRET');
    });
  },
);
