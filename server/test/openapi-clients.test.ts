/**
 * The OpenAPI document as generated clients read it: openapi-typescript turns the PATCH body into a type
 * a merge patch fits (not `Record<string, never>`), and every operation offers the bearer scheme, beside
 * "no authentication" where an anonymous call works, so a client sends its token where it opens more.
 */
import openapiTS, { astToString } from 'openapi-typescript';
import { describe, expect, it } from 'vitest';
import type { AuthSettings } from '../src/auth.js';
import { buildOpenApiDocument } from '../src/http/routes/openapi.js';

type Json = Record<string, unknown>;

const operationsOf = (doc: Json): [string, Json][] =>
  Object.entries(
    doc['paths'] as Record<string, Record<string, unknown>>,
  ).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method]) => method !== 'description')
      .map(([method, op]): [string, Json] => [
        `${method.toUpperCase()} ${path}`,
        op as Json,
      ]),
  );

describe('the OpenAPI document for generated clients', () => {
  it('types the PATCH body so that a merge patch compiles (openapi-typescript)', async () => {
    const doc = buildOpenApiDocument({ apiToken: 'secret' });
    const types = astToString(await openapiTS(doc as never));
    // The operation's request body, as openapi-typescript writes it.
    const patch =
      /"configs-patch": \{[\s\S]*?requestBody: \{([\s\S]*?)\n {8}\};/.exec(
        types,
      )?.[1];
    expect(patch).toBeDefined();
    expect(patch).toContain('"application/merge-patch+json": {');
    expect(patch).toContain('[key: string]: unknown;');
    expect(patch).not.toContain('never');
  });

  it.each<[string, AuthSettings]>([
    ['API_TOKEN only', { apiToken: 'w' }],
    ['API_TOKEN and READ_TOKEN', { apiToken: 'w', readToken: 'r' }],
  ])(
    'offers the bearer scheme on every operation, with no-auth where an anonymous call works (%s)',
    (_, auth) => {
      const doc = buildOpenApiDocument(auth);
      const closedReads = auth.readToken !== undefined;
      for (const [name, op] of operationsOf(doc)) {
        const writes =
          /^(PUT|PATCH|DELETE) |^POST \/(keys|hooks|configs\/\{name\}\/(restore|links\/check|publish|tags\/rename))$|^GET \/(keys|hooks|hooks\/\{id\}\/log)$/.test(
            name,
          );
        // `/published` is public by default (PUBLISHED_READ=public), whatever the reads need.
        const published = / \/published\//.test(name);
        expect(op['security'], name).toEqual(
          writes || (closedReads && !published)
            ? [{ bearer: [] }]
            : [{}, { bearer: [] }],
        );
      }
      expect(
        Object.keys((doc['components'] as Json)['securitySchemes'] as Json),
      ).toEqual(['bearer']);
    },
  );
});
