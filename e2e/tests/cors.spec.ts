/**
 * The REST contract from a browser on another origin: the CORS preflight for a PUT with
 * `Authorization` succeeds for an allowed origin, and only for it.
 */
import { ALLOWED_ORIGIN, ServerProcess } from '../support/server.js';
import { expect, test } from '../support/fixtures.js';

// The page below serves as a page on another origin; the server's CSP rightly limits its own page to
// its own origin (`connect-src 'self'`), so the browser is told to look past it (csp.spec.ts tests it).
test.use({ bypassCSP: true });

const preflight = (origin: string) => ({
  method: 'OPTIONS',
  headers: {
    Origin: origin,
    'Access-Control-Request-Method': 'PUT',
    'Access-Control-Request-Headers': 'authorization,content-type',
  },
});

test('preflight for PUT with Authorization from an allowed origin', async ({
  request,
  baseURL,
}) => {
  const response = await request.fetch(
    `${baseURL}/configs/cors-check`,
    preflight(ALLOWED_ORIGIN),
  );
  expect(response.status()).toBeGreaterThanOrEqual(200);
  expect(response.status()).toBeLessThan(300);
  const headers = response.headers();
  expect(headers['access-control-allow-origin']).toBe(ALLOWED_ORIGIN);
  expect(headers['access-control-allow-methods']?.toUpperCase()).toContain(
    'PUT',
  );
  expect(
    headers['access-control-allow-headers']?.toLowerCase().split(/\s*,\s*/),
  ).toEqual(expect.arrayContaining(['authorization', 'content-type']));
});

test('no CORS grant for an origin that is not allowed', async ({
  request,
  baseURL,
}) => {
  const response = await request.fetch(
    `${baseURL}/configs/cors-check`,
    preflight('http://evil.test'),
  );
  const allowed = response.headers()['access-control-allow-origin'];
  expect(allowed === undefined || allowed === '').toBe(true);
});

test('a page on an allowed origin can PUT with Authorization', async ({
  page,
}) => {
  const token = 'e2e-write-token';
  const server = await ServerProcess.launch({ API_TOKEN: token });
  try {
    // localhost and 127.0.0.1 are different origins of the same server; it allows the first.
    await page.goto(`http://localhost:${server.port}/`);
    const call = (authorization: string) =>
      page.evaluate(
        async ({ api, authorization }) => {
          const response = await fetch(`${api}/configs/cors-browser`, {
            method: 'PUT',
            headers: {
              Authorization: authorization,
              'Content-Type': 'application/json',
            },
            body: JSON.stringify({
              allLinks: { a: { url: 'https://example.com/a' } },
            }),
          });
          return response.status;
        },
        { api: server.baseURL, authorization },
      );
    expect(await call(`Bearer ${token}`)).toBe(204);
    // The preflight passed and the token was checked: a wrong one is refused.
    expect(await call('Bearer wrong')).toBe(401);
    const stored = await fetch(`${server.baseURL}/configs/cors-browser`, {
      headers: { Authorization: `Bearer ${token}` },
    });
    expect(stored.status).toBe(200);
  } finally {
    await server.dispose();
  }
});
