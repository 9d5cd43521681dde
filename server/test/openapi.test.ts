import { describe, expect, it } from 'vitest';
import { createTestApp } from './test-app.js';

interface Doc {
  openapi: string;
  paths: Record<
    string,
    Record<
      string,
      {
        requestBody?: { content: Record<string, { schema: unknown }> };
        responses: Record<
          string,
          { content?: Record<string, { schema: unknown }> }
        >;
      }
    >
  >;
  components: { schemas: Record<string, unknown> };
}

describe('GET /openapi.json', () => {
  it('documents the 7 operations of the contract and the change feed, corrected', async () => {
    const t = createTestApp();
    const { status, body } = await t.json<Doc>('/openapi.json');
    expect(status).toBe(200);
    expect(body.openapi).toMatch(/^3\.1/);
    const ops = Object.entries(body.paths).flatMap(([path, item]) =>
      Object.keys(item).map((m) => `${m.toUpperCase()} ${path}`),
    );
    expect(ops.sort()).toEqual([
      'DELETE /configs/{name}',
      'GET /configs',
      'GET /configs/{name}',
      'GET /events',
      'GET /search',
      'POST /cherry-pick',
      'POST /query',
      'PUT /configs/{name}',
    ]);
    const put = body.paths['/configs/{name}']?.['put'];
    expect(put?.requestBody?.content['application/json']?.schema).toEqual({
      $ref: '#/components/schemas/LinkConfig',
    });
    expect(Object.keys(put?.responses ?? {})).toContain('204');
    expect(Object.keys(put?.responses ?? {})).not.toContain('200');
    expect(
      put?.responses['400']?.content?.['application/json']?.schema,
    ).toEqual({ $ref: '#/components/schemas/Error' });
    expect(body.components.schemas['Error']).toEqual({
      type: 'object',
      properties: { error: { type: 'string' } },
      required: ['error'],
    });
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
    ).toEqual(['200', '400', '401', '503']);
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
