/** `DATABASE_URL` with a scheme we do not support stops the server before it touches anything. */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const main = fileURLToPath(new URL('../src/main.ts', import.meta.url));
const tsconfig = fileURLToPath(
  new URL('../../tsconfig.spec.json', import.meta.url),
);
/** tsx by file URL: the child runs in a folder with no node_modules. */
const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
const dir = mkdtempSync(join(tmpdir(), 'linkconfig-url-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('DATABASE_URL', () => {
  it('refuses an unknown scheme with exit code 2 and creates no file', async () => {
    // Run from an empty folder, where a plain-path misreading would create `mysql:/x`.
    const child = spawn(process.execPath, ['--import', tsx, main], {
      cwd: dir,
      env: {
        ...process.env,
        TSX_TSCONFIG_PATH: tsconfig,
        DATABASE_URL: 'mysql://x',
        PORT: '0',
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const code = await new Promise((resolve) => child.once('exit', resolve));
    expect(code).toBe(2);
    expect(stderr).toContain('unsupported scheme "mysql:"');
    expect(existsSync(join(dir, 'mysql:'))).toBe(false);
  });
});
