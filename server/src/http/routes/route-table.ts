/**
 * The REST route table, built from the operations' `meta` (one declaration per route, in
 * `routers/*.ts`). The Hono routes, the `Allow` lists of 405 answers, the OpenAPI corrections and the
 * web page's list of API paths all come from this table, never from a second list.
 */
import { z } from 'zod';
import { OPERATIONS } from '../../routers/app-router.js';
import type {
  Access,
  AnyOperation,
  Representation,
  RestMeta,
} from '../../trpc.js';

/** A REST method of the contract. */
export type RestMethod = 'GET' | 'PUT' | 'PATCH' | 'DELETE' | 'POST';

/** One REST route: the operation it calls, where its input comes from and how it answers. */
export interface RestRoute {
  /** The procedure path (`configs.get`). */
  readonly id: string;
  readonly method: RestMethod;
  /** The OpenAPI path (`/configs/{name}`). */
  readonly path: string;
  /** The same path for Hono's router (`/configs/:name`). */
  readonly honoPath: string;
  /** Path parameters by segment index (`{ 2: 'name' }` for `/configs/{name}`). */
  readonly pathParams: ReadonlyMap<number, string>;
  /**
   * The segment index of the path parameter naming the config the operation acts on (its declared
   * `configName`), checked before anything else; `undefined` when it names none.
   */
  readonly configNameAt: number | undefined;
  /**
   * Where the rest of the input comes from: nothing, the query string, the body's fields, or the whole
   * body as one field (`{ as: 'config' }`).
   */
  readonly source: 'none' | 'query' | 'fields' | { readonly as: string };
  /** Input fields read from request headers: input field → header name. */
  readonly headers: Readonly<Record<string, string>>;
  /**
   * Input fields the schema types as numbers: read from a query string or the path they arrive as text,
   * and REST converts them (`Number`) before the input is checked (tRPC sends numbers as they are).
   */
  readonly numberFields: ReadonlySet<string>;
  /** 204 for `none`, 201 for `rest.created`, else 200. */
  readonly status: 200 | 201 | 204;
  /** How the operation's value is answered (see {@link Representation}). */
  readonly representation: Representation;
  /** Whole answers may be reused while the stored state is unchanged (`cache/cache-policy.ts`). */
  readonly reusable: boolean;
  readonly access: Access;
  /** An expensive read (rate limits give these their own budget). */
  readonly expensive: boolean;
  /** Its answer never changes (`rest.immutable`): sent with `IMMUTABLE_CACHING`'s headers. */
  readonly immutable: boolean;
  readonly operation: AnyOperation;
}

function sourceOf(
  method: RestMethod,
  rest: RestMeta | undefined,
  hasInput: boolean,
): RestRoute['source'] {
  if (method === 'PUT' || method === 'PATCH' || method === 'POST') {
    return rest?.body ?? 'fields';
  }
  return method === 'GET' && hasInput ? 'query' : 'none';
}

/** The schema inside optional, default and nullable wrappers. */
function unwrapped(schema: z.ZodType): z.ZodType {
  let inner = schema;
  while (
    inner instanceof z.ZodOptional ||
    inner instanceof z.ZodDefault ||
    inner instanceof z.ZodNullable
  ) {
    inner = inner.unwrap() as z.ZodType;
  }
  return inner;
}

/** The fields of an object input whose schema is a number. */
function numberFieldsOf(input: z.ZodType): ReadonlySet<string> {
  const object = unwrapped(input);
  if (!(object instanceof z.ZodObject)) return new Set();
  return new Set(
    Object.entries(object.shape as Record<string, z.ZodType>)
      .filter(([, field]) => unwrapped(field) instanceof z.ZodNumber)
      .map(([name]) => name),
  );
}

/** Operations by router, then by procedure name (as {@link OPERATIONS}). */
export type OperationRecords = Readonly<
  Record<string, Readonly<Record<string, AnyOperation>>>
>;

/** Builds the table from operations (exported for tests; the app uses {@link REST_ROUTES}). */
export function buildRouteTable(operations: OperationRecords): RestRoute[] {
  const flat = Object.entries(operations).flatMap(([group, ops]) =>
    Object.entries(ops).map(([name, op]) => [`${group}.${name}`, op] as const),
  );
  return flat.map(([id, op]) => {
    const { method, path } = op.meta.openapi;
    if (
      method !== 'GET' &&
      method !== 'PUT' &&
      method !== 'PATCH' &&
      method !== 'DELETE' &&
      method !== 'POST'
    ) {
      throw new Error(`${id}: unsupported REST method ${method}`);
    }
    const pathParams = new Map<number, string>();
    const segments = path.split('/').map((segment, i) => {
      const param = /^\{(\w+)\}$/.exec(segment)?.[1];
      if (param === undefined) return segment;
      pathParams.set(i, param);
      return `:${param}`;
    });
    const configNameAt = [...pathParams].find(
      ([, param]) => param === op.configName,
    )?.[0];
    if (op.configName !== undefined && configNameAt === undefined) {
      // REST checks a named config's access before it reads a body: the name must be in the path.
      throw new Error(
        `${id}: configName "${op.configName}" is not a parameter of ${path}`,
      );
    }
    if (
      op.configName === undefined &&
      [...pathParams.values()].includes('name')
    ) {
      // A route under a config's name that forgets to declare it would skip the per-name access check.
      throw new Error(
        `${id}: ${path} names a config ({name}) but the operation declares no configName`,
      );
    }
    const hasInput = op.input.def.type !== 'void';
    const representation = op.meta.rest?.representation ?? 'json';
    return {
      id,
      method,
      path,
      honoPath: segments.join('/'),
      pathParams,
      configNameAt,
      source: sourceOf(method, op.meta.rest, hasInput),
      headers: op.meta.rest?.headers ?? {},
      numberFields: numberFieldsOf(op.input),
      status:
        representation === 'none' ? 204 : op.meta.rest?.created ? 201 : 200,
      representation,
      reusable: op.meta.rest?.reusable ?? false,
      access: op.access,
      expensive: op.meta.rest?.expensive ?? false,
      immutable: op.meta.rest?.immutable ?? false,
      operation: op,
    };
  });
}

/** Every REST route of the service. */
export const REST_ROUTES: readonly RestRoute[] = buildRouteTable(OPERATIONS);

/** The methods each path answers, for `Allow` (`GET, PUT, DELETE`), by OpenAPI path. */
export function allowedMethods(
  routes: readonly RestRoute[] = REST_ROUTES,
): Map<string, string> {
  const byPath = new Map<string, RestMethod[]>();
  for (const route of routes) {
    byPath.set(route.path, [...(byPath.get(route.path) ?? []), route.method]);
  }
  return new Map(
    [...byPath].map(([path, methods]) => [path, methods.join(', ')]),
  );
}

/**
 * A regular expression source matching the paths of the REST API (`^/(?:configs(?:/[^/]+)?|search|…)$`),
 * for clients that must tell API requests from page assets (the web page's service worker).
 */
export function apiPathPattern(
  routes: readonly RestRoute[] = REST_ROUTES,
): string {
  const paths = [...new Set(routes.map((r) => r.path))].map((path) =>
    path
      .split('/')
      .map((segment) =>
        /^\{\w+\}$/.test(segment)
          ? '[^/]+'
          : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'),
      )
      .join('/'),
  );
  return `^(?:${paths.join('|')})$`;
}

/** Whether a request path is of the published view (`/published/…`, docs/publishing.md). */
export const isPublishedPath = (path: string): boolean =>
  path === '/published' || path.startsWith('/published/');
