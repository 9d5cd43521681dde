import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Metrics } from '../src/http/metrics.js';
import { createTestApp } from './test-app.js';

const appDir = mkdtempSync(join(tmpdir(), 'linkconfig-headers-'));
writeFileSync(join(appDir, 'index.html'), '<!doctype html><title>t</title>');
writeFileSync(join(appDir, 'app.js'), 'console.log(1);\n');
writeFileSync(join(appDir, 'app.js.map'), '{"version":3}');
afterAll(() => rmSync(appDir, { recursive: true, force: true }));

const directives = (csp: string | null): Map<string, string> =>
  new Map(
    (csp ?? '')
      .split(';')
      .map((part) => part.trim())
      .filter((part) => part !== '')
      .map((part) => {
        const [name = '', ...values] = part.split(/\s+/);
        return [name, values.join(' ')];
      }),
  );

describe('security headers', () => {
  it.each([
    ['the web page', '/'],
    ['a page asset', '/app.js'],
    ['the docs page', '/docs'],
    ['a docs asset', '/docs/assets/swagger-ui.css'],
    ['a JSON answer', '/configs'],
    ['an error', '/no/such/route'],
    ['the health check', '/healthz'],
    ['the metrics', '/metrics'],
  ])('are on %s', async (_, path) => {
    const t = createTestApp({ appDir, metrics: new Metrics() });
    const response = await t.request(path);
    const headers = response.headers;
    expect(headers.get('x-content-type-options')).toBe('nosniff');
    expect(headers.get('x-frame-options')).toBe('DENY');
    expect(headers.get('referrer-policy')).toBe('no-referrer');
    const csp = directives(headers.get('content-security-policy'));
    expect(csp.get('frame-ancestors')).toBe("'none'");
    expect(csp.get('default-src')).toBe("'self'");
    expect(csp.get('script-src')).toBe("'self'");
    expect(csp.get('object-src')).toBe("'none'");
  });

  it('allow nothing inline or from other origins in scripts and styles', async () => {
    const t = createTestApp({ appDir });
    const csp = (await t.request('/docs')).headers.get(
      'content-security-policy',
    );
    expect(csp).not.toMatch(/unsafe-inline|unsafe-eval|\*|https?:/);
  });

  it.each([
    ['of the page build', '/app.js.map'],
    ['shipped with Swagger UI', '/docs/assets/swagger-ui-bundle.js.map'],
  ])('refuse source maps %s with 404', async (_, path) => {
    const t = createTestApp({ appDir });
    const response = await t.request(path);
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({
      error: expect.stringContaining('no route'),
    });
  });

  it('still serve the files next to the maps', async () => {
    const t = createTestApp({ appDir });
    expect((await t.request('/app.js')).status).toBe(200);
    expect((await t.request('/docs/assets/swagger-ui-bundle.js')).status).toBe(
      200,
    );
  });

  it('leave config names ending in .map alone', async () => {
    const t = createTestApp({ appDir });
    expect((await t.put('world.map', { allLinks: {} })).status).toBe(204);
    expect((await t.request('/configs/world.map')).status).toBe(200);
  });
});
