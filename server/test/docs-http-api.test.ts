/**
 * docs/http-api.md states facts the code decides; each is read from the document and checked against
 * the code, so neither can change alone: the routes each key scope may call, the tRPC procedures, and
 * the methods CORS allows (issue 29, "Docs that fail on first contact").
 */
import { describe, expect, it } from 'vitest';
import { REST_ROUTES } from '../src/http/routes/route-table.js';
import { appRouter } from '../src/routers/app-router.js';
import { codeSpans, section, tableRows, textOf } from './doc-tables.js';
import { createTestApp } from './test-app.js';

/** A route as the document writes it: `PATCH /configs/:name`. */
const written = (route: (typeof REST_ROUTES)[number]): string =>
  `${route.method} ${route.honoPath}`;

describe('docs/http-api.md', () => {
  const auth = section('http-api.md', 'Authentication');
  const scopes = new Map(
    tableRows(auth, 'scope').map(([scope = '', may = '']) => [
      scope.replaceAll('`', ''),
      codeSpans(may),
    ]),
  );

  it.each(['write', 'publish', 'admin'] as const)(
    'names every route that needs %s scope in that scope’s row',
    (access) => {
      const needed = REST_ROUTES.filter((r) => r.access === access).map(
        written,
      );
      expect(needed.length).toBeGreaterThan(0);
      expect(scopes.get(access)).toEqual(expect.arrayContaining(needed));
    },
  );

  it('lists every tRPC procedure, and no other', () => {
    const listed = tableRows(section('http-api.md', 'tRPC'), 'procedure').map(
      ([name = '']) => name.replaceAll('`', ''),
    );
    expect([...listed].sort()).toEqual(
      Object.keys(appRouter._def.procedures).sort(),
    );
  });

  it('names exactly the methods a CORS preflight is allowed', async () => {
    const sentence = /The methods ([^.]*?) are allowed/.exec(
      textOf(section('http-api.md', 'Headers')),
    )?.[1];
    const documented = codeSpans(sentence ?? '');
    const t = createTestApp();
    const preflight = await t.request('/configs/x', {
      method: 'OPTIONS',
      headers: {
        Origin: 'https://page.example',
        'Access-Control-Request-Method': 'PATCH',
      },
    });
    const allowed =
      preflight.headers.get('access-control-allow-methods')?.split(',') ?? [];
    expect(documented.sort()).toEqual(allowed.map((m) => m.trim()).sort());
    // Every method of a route is among them.
    for (const route of REST_ROUTES) expect(allowed).toContain(route.method);
  });
});
