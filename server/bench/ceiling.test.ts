import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { captureResponse, writeCeilingFile } from './ceiling-file.js';
import { ChildServer } from './child-server.js';

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
const json = JSON.stringify({
  results: [{ id: 'l1', url: 'https://example.com/ü' }],
});

describe('the ceiling server', () => {
  let dir = '';
  let ceiling: ChildServer | undefined;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'ceiling-test-'));
    const original = new Response(json, {
      status: 200,
      headers: {
        'content-type': 'application/json; charset=UTF-8',
        etag: '"v1"',
      },
    });
    const captures = [
      await captureResponse('search', 'GET', original),
      await captureResponse('put', 'PUT', new Response(null, { status: 204 })),
    ];
    await writeCeilingFile(join(dir, 'c.json'), captures);
    ceiling = await ChildServer.start({
      label: 'ceiling',
      args: ['--import', 'tsx', join(repoRoot, 'server/bench/ceiling.ts')],
      cwd: repoRoot,
      env: { CEILING_FILE: join(dir, 'c.json') },
    });
  });

  afterAll(async () => {
    await ceiling?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('replays the captured status, headers and bytes', async () => {
    const res = await fetch(`${ceiling?.baseUrl}/search`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe(
      'application/json; charset=UTF-8',
    );
    expect(res.headers.get('etag')).toBe('"v1"');
    expect(await res.text()).toBe(json);
  });

  it('answers a body-carrying scenario after reading the body', async () => {
    const res = await fetch(`${ceiling?.baseUrl}/put`, {
      method: 'PUT',
      body: 'x'.repeat(200_000),
    });
    expect(res.status).toBe(204);
    expect(await res.text()).toBe('');
  });

  it('serves a scenario only with its own method', async () => {
    const res = await fetch(`${ceiling?.baseUrl}/search`, {
      method: 'POST',
      body: '{}',
    });
    expect(res.status).toBe(404);
  });

  it('reports its resident memory', async () => {
    expect(await ceiling?.rssKiB()).toBeGreaterThan(1000);
  });
});
