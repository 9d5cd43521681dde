/**
 * `linkconfig import` of JSON refuses what a PUT of the same text refuses (a number too large for a
 * double, an integer a double rounds, a repeated key), with `--server` and with `--database-url`, and
 * writes nothing.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../src/logger.js';
import { startServer } from '../src/start-server.js';
import type { RunningServer } from '../src/start-server.js';
import { runLinkconfig } from './cli-run.js';

const dir = mkdtempSync(join(tmpdir(), 'linkconfig-cli-fidelity-'));
const KEY = 'fidelity-test-key';
let server: RunningServer;

beforeAll(async () => {
  server = await startServer({
    databaseUrl: join(dir, 'server.db'),
    logger: createLogger('silent'),
    port: 0,
    host: '127.0.0.1',
    seed: 'none',
    appDir: '/nonexistent',
    apiToken: KEY,
  });
});
afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

const link = '"url":"https://example.com/"';
const CASES = [
  [
    'a number too large for a double',
    `{"allLinks":{"a":{${link},"meta":{"n":1e400}}}}`,
    /at allLinks\.a\.meta\.n, the number 1e400 is too large/,
  ],
  [
    'an integer a double rounds',
    `{"allLinks":{"a":{${link},"meta":{"n":12345678901234567890123}}}}`,
    /at allLinks\.a\.meta\.n, the integer 12345678901234567890123 is beyond ±2\^53/,
  ],
  [
    'a repeated key',
    `{"allLinks":{"a":{${link},"label":"one","label":"two"}}}`,
    /at allLinks\.a\.label, the key appears twice/,
  ],
] as const;

describe.each([
  ['a running server', (): string[] => ['--server', server.url, '--key', KEY]],
  [
    'a database',
    (): string[] => ['--database-url', `sqlite:${join(dir, 'direct.db')}`],
  ],
])('linkconfig import of JSON into %s', (_, target) => {
  it.each(CASES)(
    'refuses %s, as the API does, and writes nothing',
    async (what, text, message) => {
      const file = join(dir, `${what.replaceAll(' ', '-')}.json`);
      writeFileSync(file, text);
      const run = await runLinkconfig([
        'import',
        file,
        '--into',
        'fidelity',
        ...target(),
      ]);
      expect(run.code).toBe(1);
      expect(run.stderr).toMatch(/the file cannot be imported as written/);
      expect(run.stderr).toMatch(message);
      expect(run.stdout).toBe('');
      const put = await fetch(`${server.url}/configs/same-body`, {
        method: 'PUT',
        headers: {
          Authorization: `Bearer ${KEY}`,
          'Content-Type': 'application/json',
        },
        body: text,
      });
      expect(put.status).toBe(400);
      const exported = await runLinkconfig(['export', 'fidelity', ...target()]);
      // Nothing was stored (the direct database was not even created).
      expect(exported.stderr).toMatch(
        /there is no config "fidelity"|there is no database at/,
      );
    },
  );
});

describe('linkconfig import of a file that is not UTF-8', () => {
  it('reports the lines, and skips a link whose URL held such bytes', async () => {
    const file = join(dir, 'latin1.html');
    writeFileSync(
      file,
      Buffer.concat([
        Buffer.from(
          '<!DOCTYPE NETSCAPE-Bookmark-file-1>\n<DL><p>\n<DT><A HREF="https://cafe.example/caf',
        ),
        Buffer.from([0xe9]),
        Buffer.from(
          '">Caf\u00e9</A>\n<DT><A HREF="https://fine.example/">Fine</A>\n</DL><p>\n',
        ),
      ]),
    );
    const run = await runLinkconfig([
      'import',
      file,
      '--into',
      'latin',
      '--database-url',
      `sqlite:${join(dir, 'latin.db')}`,
    ]);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/1 added, 0 merged, 1 skipped/);
    expect(run.stdout).toContain(
      'line 3:5  https://cafe.example/caf\uFFFD  the URL held bytes that are not UTF-8',
    );
    expect(run.stdout).toContain(
      'notes:\n  line 3  bytes that are not UTF-8 were read as \uFFFD',
    );
  });
});
