import { createConfig, lintFromString } from '@redocly/openapi-core';
import { describe, expect, it } from 'vitest';
import { EXAMPLE_CONFIG } from '../src/http/routes/openapi.js';
import { REST_ROUTES } from '../src/http/routes/route-table.js';
import { createTestApp } from './test-app.js';
import type { TestAppOptions } from './test-app.js';

interface Operation {
  description?: string;
  security?: unknown[];
  parameters?: { in: string; name: string; description?: string }[];
  requestBody?: { content: Record<string, { schema: unknown }> };
  responses: Record<
    string,
    {
      content?: Record<string, { schema: unknown }>;
      headers?: Record<string, unknown>;
    }
  >;
}
interface Doc {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
  components: {
    schemas: Record<string, unknown>;
    securitySchemes?: Record<string, unknown>;
  };
}

async function fetchDoc(options: TestAppOptions = {}) {
  const t = createTestApp(options);
  const { status, body } = await t.json<Doc>('/openapi.json');
  expect(status).toBe(200);
  return { t, doc: body };
}

const operations = (doc: Doc) =>
  Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(
        (entry): entry is [string, Operation] => entry[0] !== 'description',
      )
      .map(([method, op]) => ({ method: method.toUpperCase(), path, op })),
  );

describe('GET /openapi.json', () => {
  it('documents exactly the routes of the route table', async () => {
    const { doc } = await fetchDoc();
    expect(
      operations(doc)
        .map((o) => `${o.method} ${o.path}`)
        .sort(),
    ).toEqual(
      [
        ...REST_ROUTES.map((r) => `${r.method} ${r.path}`),
        'GET /events',
      ].sort(),
    );
    expect(REST_ROUTES).toHaveLength(34);
  });

  it('lints clean with the strict recommended rules', async () => {
    const { doc } = await fetchDoc();
    const problems = await lintFromString({
      source: JSON.stringify(doc, null, 2),
      absoluteRef: '/openapi.json',
      config: await createConfig({ extends: ['recommended-strict'] }),
    });
    expect(
      problems.map((p) => `${p.severity} ${p.ruleId}: ${p.message}`),
    ).toEqual([]);
  });

  it('lists only { error } bodies and exactly the statuses each operation can answer', async () => {
    const { doc } = await fetchDoc();
    const statuses = Object.fromEntries(
      operations(doc).map((o) => [
        `${o.method} ${o.path}`,
        Object.keys(o.op.responses).sort().join(' '),
      ]),
    );
    expect(statuses).toEqual({
      'GET /configs': '200 400 401 500',
      'GET /configs/{name}': '200 304 400 401 404 500',
      'PUT /configs/{name}': '204 400 401 403 412 413 415 429 500 503',
      'PATCH /configs/{name}': '204 400 401 403 404 412 413 415 429 500 503',
      'DELETE /configs/{name}': '204 400 401 403 412 429 500',
      'GET /search': '200 400 401 429 500 503',
      'POST /cherry-pick': '200 400 401 404 413 415 429 500 503',
      'POST /query': '200 400 401 404 413 415 429 500 503',
      'GET /events': '200 400 401 500 503',
      'POST /expressions/check': '200 400 401 404 413 415 429 500 503',
      'GET /access': '200 401 500',
      'POST /keys': '201 400 401 403 413 415 429 500 503',
      'GET /keys': '200 401 403 429 500',
      'DELETE /keys/{id}': '204 400 401 403 404 429 500',
      'POST /hooks': '201 400 401 403 413 415 429 500 503',
      'GET /hooks': '200 401 403 429 500',
      'DELETE /hooks/{id}': '204 400 401 403 404 429 500',
      'GET /hooks/{id}/log': '200 400 401 403 404 429 500',
      'GET /configs/{name}/history': '200 400 401 404 429 500',
      'GET /configs/{name}/revisions/{rev}': '200 400 401 404 429 500',
      'GET /configs/{name}/diff': '200 400 401 404 429 500',
      'POST /configs/{name}/restore':
        '200 400 401 403 404 412 413 415 429 500 503',
      'GET /history': '200 400 401 429 500',
      'GET /configs/{name}/links/health': '200 400 401 404 500',
      'GET /links/health': '200 400 401 429 500 503',
      'POST /configs/{name}/links/check': '200 400 401 403 404 409 429 500',
      'GET /configs/{name}/publish': '200 400 401 404 500',
      'POST /configs/{name}/publish':
        '200 400 401 403 404 412 413 415 429 500 503',
      'DELETE /configs/{name}/publish': '200 400 401 403 429 500',
      'GET /published/configs': '200 400 401 429 500',
      'GET /published/configs/{name}': '200 304 400 401 404 429 500',
      'GET /published/search': '200 400 401 429 500 503',
      'POST /published/cherry-pick': '200 400 401 404 413 415 429 500 503',
      'POST /published/query': '200 400 401 404 413 415 429 500 503',
      'POST /configs/{name}/tags/rename':
        '200 400 401 403 404 412 413 415 429 500 503',
    });
    for (const { op } of operations(doc)) {
      for (const [status, response] of Object.entries(op.responses)) {
        if (Number(status) < 400) continue;
        expect(response.content?.['application/json']?.schema).toEqual({
          $ref: '#/components/schemas/Error',
        });
      }
    }
    expect(Object.keys(doc.components.schemas).sort()).toEqual([
      'Error',
      'Link',
      'LinkConfig',
      'ResolvedLink',
    ]);
  });

  it('describes every parameter and documents the PUT body as the config itself', async () => {
    const { doc } = await fetchDoc();
    for (const { op } of operations(doc)) {
      for (const parameter of op.parameters ?? []) {
        expect(parameter.description, parameter.name).toMatch(/\w/);
      }
    }
    const put = doc.paths['/configs/{name}']?.['put'];
    expect(put?.requestBody?.content['application/json']).toEqual({
      schema: { $ref: '#/components/schemas/LinkConfig' },
      example: EXAMPLE_CONFIG,
    });
    const get = doc.paths['/configs/{name}']?.['get'];
    expect(get?.parameters?.map((p) => `${p.in} ${p.name}`).sort()).toEqual([
      'header If-None-Match',
      'path name',
      'query links',
    ]);
  });

  it('has a PUT example the server accepts and stores', async () => {
    const { t } = await fetchDoc();
    expect((await t.put('example', EXAMPLE_CONFIG)).status).toBe(204);
    const { body } = await t.json<{ config: unknown }>('/configs/example');
    expect(body.config).toEqual(EXAMPLE_CONFIG);
  });

  it('routes every documented operation (never "no route", never 405)', async () => {
    const { t, doc } = await fetchDoc();
    for (const { method, path } of operations(doc)) {
      const response = await t.request(path.replace('{name}', 'x'), {
        method,
        headers: { 'Content-Type': 'application/json' },
        ...(method === 'PUT' || method === 'POST' || method === 'PATCH'
          ? { body: '{}' }
          : {}),
      });
      // The change feed stays open: its status and headers are enough.
      const stream = response.headers
        .get('content-type')
        ?.startsWith('text/event-stream');
      const text = stream ? '' : await response.text();
      if (stream) await response.body?.cancel();
      expect(response.status, `${method} ${path}`).not.toBe(405);
      expect(text, `${method} ${path}`).not.toMatch(/no route/);
    }
  });

  it('answers 405 with Allow for other methods on a documented path', async () => {
    const { t } = await fetchDoc();
    const response = await t.request('/configs/x', { method: 'POST' });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('GET, PUT, PATCH, DELETE');
  });

  it('documents the preconditions of PUT and DELETE, their 412, and the ETag', async () => {
    const t = createTestApp();
    const { body } = await t.json<{
      paths: Record<
        string,
        Record<
          string,
          {
            parameters?: { in: string; name: string }[];
            responses: Record<string, { headers?: Record<string, unknown> }>;
          }
        >
      >;
    }>('/openapi.json');
    const item = body.paths['/configs/{name}'] ?? {};
    const headers = (method: string) =>
      (item[method]?.parameters ?? [])
        .filter((p) => p.in === 'header')
        .map((p) => p.name);
    expect(headers('put')).toEqual(['If-Match', 'If-None-Match']);
    expect(headers('delete')).toEqual(['If-Match']);
    expect((item['delete']?.parameters ?? []).map((p) => p.name)).not.toContain(
      'ifMatch',
    );
    for (const method of ['put', 'delete']) {
      expect(
        Object.keys(item[method]?.responses['412']?.headers ?? {}),
      ).toEqual(['ETag']);
    }
    expect(Object.keys(item['put']?.responses['204']?.headers ?? {})).toEqual([
      'ETag',
    ]);
    expect(Object.keys(item['get']?.responses['200']?.headers ?? {})).toEqual([
      'ETag',
    ]);
    expect(
      Object.keys(body.paths['/events']?.['get']?.responses ?? {}),
    ).toEqual(['200', '400', '401', '500', '503']);
  });

  it('serves the interactive docs page', async () => {
    const t = createTestApp();
    const page = await t.request('/docs');
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('/docs/init.js');
    expect((await t.request('/docs/assets/swagger-ui-bundle.js')).status).toBe(
      200,
    );
    expect(await (await t.request('/docs/init.js')).text()).toContain(
      "url: '/openapi.json'",
    );
  });
});

/** The operation requires a token: every requirement it lists names a scheme (`{}` would be "none"). */
const needsToken = ({ op }: { op: Operation }): boolean =>
  (op.security ?? []).length > 0 &&
  (op.security ?? []).every((r) => Object.keys(r as object).length > 0);

/** Sends one anonymous request for a documented operation; an open stream is closed at once. */
async function call(
  t: ReturnType<typeof createTestApp>,
  method: string,
  path: string,
): Promise<Response> {
  const response = await t.request(path.replace('{name}', 'x'), {
    method,
    headers: { 'Content-Type': 'application/json' },
    ...(method === 'PUT' || method === 'POST' || method === 'PATCH'
      ? { body: '{}' }
      : {}),
  });
  if (response.headers.get('content-type')?.startsWith('text/event-stream'))
    await response.body?.cancel();
  else await response.arrayBuffer();
  return response;
}

describe('GET /openapi.json tells the truth about this server (issue 17)', () => {
  // An open server (no API_TOKEN, no key yet) is described as it will be once a key exists: keys can be
  // created while it runs. Its description equals that of a server with only API_TOKEN (below).
  const servers: Record<string, TestAppOptions> = {
    'API_TOKEN only': { auth: { apiToken: 'write-secret' } },
    'API_TOKEN and READ_TOKEN': {
      auth: { apiToken: 'write-secret', readToken: 'read-secret' },
    },
  };
  for (const [name, options] of Object.entries(servers)) {
    it(`declares the bearer token exactly where an anonymous call is refused (${name})`, async () => {
      const { t, doc } = await fetchDoc(options);
      const declared = operations(doc).filter(needsToken);
      for (const { method, path, op } of operations(doc)) {
        const status = (await call(t, method, path)).status;
        expect(op.security, `${method} ${path}`).toBeDefined();
        expect(needsToken({ op }), `${method} ${path}: ${status}`).toBe(
          status === 401,
        );
      }
      // Writes need it, so the scheme is always a component in use (lint: no unused components).
      expect(declared.length).toBeGreaterThan(0);
      expect(Object.keys(doc.components.securitySchemes ?? {})).toEqual([
        'bearer',
      ]);
      const problems = await lintFromString({
        source: JSON.stringify(doc),
        absoluteRef: '/openapi.json',
        config: await createConfig({ extends: ['recommended-strict'] }),
      });
      expect(problems.map((p) => `${p.ruleId}: ${p.message}`)).toEqual([]);
    });
  }

  it('declares the token on writes and key management only when only API_TOKEN is set', async () => {
    const { doc } = await fetchDoc(servers['API_TOKEN only']);
    const declared = operations(doc)
      .filter(needsToken)
      .map((o) => `${o.method} ${o.path}`)
      .sort();
    expect(declared).toEqual([
      'DELETE /configs/{name}',
      'DELETE /configs/{name}/publish',
      'DELETE /hooks/{id}',
      'DELETE /keys/{id}',
      'GET /hooks',
      'GET /hooks/{id}/log',
      'GET /keys',
      'PATCH /configs/{name}',
      'POST /configs/{name}/links/check',
      'POST /configs/{name}/publish',
      'POST /configs/{name}/restore',
      'POST /configs/{name}/tags/rename',
      'POST /hooks',
      'POST /keys',
      'PUT /configs/{name}',
    ]);
    const open = await fetchDoc();
    expect(
      operations(open.doc)
        .filter(needsToken)
        .map((o) => `${o.method} ${o.path}`)
        .sort(),
    ).toEqual(declared);
  });

  it('names the current version in the ETag of a 304, as the server sends it', async () => {
    const { t, doc } = await fetchDoc();
    const notModified = doc.paths['/configs/{name}']?.['get']?.responses['304'];
    expect(Object.keys(notModified?.headers ?? {})).toEqual(['ETag']);
    const etag = (await t.request('/configs/demo')).headers.get('etag');
    await t.put('tagged', { allLinks: {} });
    const first = await t.request('/configs/tagged');
    const tag = first.headers.get('etag') ?? '';
    const again = await t.request('/configs/tagged', {
      headers: { 'If-None-Match': tag },
    });
    expect(again.status).toBe(304);
    expect(again.headers.get('etag')).toBe(tag);
    expect(etag).toBeNull(); // the test app has no demo config
  });

  it('declares, for every path, the methods whose absence answers 405, as the server does', async () => {
    const { t, doc } = await fetchDoc();
    for (const [path, item] of Object.entries(doc.paths)) {
      // A method this path does not have.
      const absent = ['patch', 'post'].find((m) => !(m in item)) ?? 'patch';
      const response = await call(t, absent.toUpperCase(), path);
      expect(response.status, path).toBe(405);
      const allow = response.headers.get('allow');
      const sentence = `Other methods on this path answer 405 (Allow: ${allow}).`;
      expect(item['description'], path).toBe(sentence);
      for (const [method, op] of Object.entries(item)) {
        if (method === 'description') continue;
        expect(op.description, `${method} ${path}`).toContain(sentence);
        expect(allow?.split(', '), path).toContain(method.toUpperCase());
      }
    }
  });
});
