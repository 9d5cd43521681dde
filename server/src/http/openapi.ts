import { LinkConfigSchema } from '@linkconfig/shared';
import { generateOpenApiDocument } from 'trpc-to-openapi';
import { z } from 'zod';
import { appRouter } from '../routers/app-router.js';
import { documentChanges } from './openapi-changes.js';

type Json = Record<string, unknown>;

const ERROR_STATUSES: Record<string, string> = {
  '400': 'The request is malformed; `error` says what is wrong',
  '401': 'A bearer token is needed, or the one given is not valid',
  '403': 'The token may not do this (the read token cannot write)',
  '404': 'Not found',
  '413': 'The body is larger than the configured limit',
  '415': 'The body is not JSON',
  '500': 'Internal error; details are in the server log',
};

const isJson = (v: unknown): v is Json =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The OpenAPI 3.1 document, generated from the procedures by trpc-to-openapi and then corrected where the
 * generator cannot describe our REST contract: PUT's body is the config itself (not `{ config }`), PUT and
 * DELETE answer 204 with no body, and every error body is `{ error }`.
 */
export function buildOpenApiDocument(): Json {
  const doc = generateOpenApiDocument(appRouter, {
    title: 'Link Config Service',
    version: '1.0.0',
    description:
      'Named link configs over REST (this document) and tRPC (`/trpc`). Every non-2xx answer is `{ "error": "…" }`.',
    baseUrl: '/',
  }) as unknown as Json;
  const components = (
    isJson(doc['components']) ? doc['components'] : {}
  ) as Json;
  const schemas = (
    isJson(components['schemas']) ? components['schemas'] : {}
  ) as Json;
  schemas['Error'] = {
    type: 'object',
    properties: { error: { type: 'string' } },
    required: ['error'],
  };
  const linkConfig: Json = z.toJSONSchema(LinkConfigSchema, {
    io: 'input',
    unrepresentable: 'any',
  });
  delete linkConfig['$schema'];
  schemas['LinkConfig'] = linkConfig;
  components['schemas'] = schemas;
  doc['components'] = components;

  const paths = isJson(doc['paths']) ? doc['paths'] : {};
  for (const [path, item] of Object.entries(paths)) {
    if (!isJson(item)) continue;
    for (const [method, op] of Object.entries(item)) {
      if (!isJson(op)) continue;
      const responses: Json = {};
      const generated = isJson(op['responses']) ? op['responses'] : {};
      const ok = generated['200'];
      if (
        path === '/configs/{name}' &&
        (method === 'put' || method === 'delete')
      ) {
        responses['204'] = {
          description:
            method === 'put'
              ? 'Stored; no body'
              : 'Deleted (or never existed); no body',
        };
      } else if (ok !== undefined) {
        responses['200'] = ok;
      }
      if (path === '/configs/{name}' && method === 'get') {
        responses['304'] = {
          description: 'Not modified (the `If-None-Match` ETag matches)',
        };
      }
      for (const [status, description] of Object.entries(ERROR_STATUSES)) {
        responses[status] = {
          description,
          content: {
            'application/json': {
              schema: { $ref: '#/components/schemas/Error' },
            },
          },
        };
      }
      op['responses'] = responses;
      if (path === '/configs/{name}' && method === 'put') {
        op['requestBody'] = {
          required: true,
          description:
            'The config itself, stored verbatim (key order and unknown keys kept).',
          content: {
            'application/json': {
              schema: { $ref: '#/components/schemas/LinkConfig' },
            },
          },
        };
      }
    }
  }
  documentChanges(doc);
  return doc;
}
