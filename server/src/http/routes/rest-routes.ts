import type { Context as HonoContext, Hono } from 'hono';
import type { ResponseCache } from '../../cache/response-cache.js';
import type { Context } from '../../context.js';
import { DomainError, describeIssues, issuesOf } from '../../errors.js';
import type { Outcome } from '../../outcome.js';
import type { ReceivedJson } from '../../received-json.js';
import type { Received } from '../../trpc.js';
import { accessDenied, nameDenied } from '../../access-check.js';
import { HttpError } from '../http-error.js';
import { NO_SEGMENTS, nameInPath, pathSegments } from './path-segments.js';
import { routeBodyKind, routeBodyLimits } from '../middleware/body-limits.js';
import type { BodyKind, BodyLimitSet } from '../middleware/body-limits.js';
import { encodingFor, jsonResponse } from '../middleware/compression.js';
import type { Encoding } from '../middleware/compression.js';
import { entryResponse, etagMatches } from './entry-response.js';
import { answerHeaders } from '../middleware/request-context.js';
import { responseReuse } from './response-reuse.js';
import { rawInput } from './raw-input.js';
import type { RawInput } from './raw-input.js';
import { REST_ROUTES, allowedMethods, isPublishedPath } from './route-table.js';
import {
  IMMUTABLE_CACHING,
  bodyEtag,
  surrogateKeys,
} from './published-caching.js';
import type { PublishedCaching } from './published-caching.js';
import type { RestRoute } from './route-table.js';

/** What the REST routes need from the app. */
export interface RestDeps {
  /** The per-request context (services, the caller's access, the stored state's token). */
  readonly context: (c: HonoContext) => Context;
  /** Body limits: of configs to store, and of every other body (`body-limits.ts`). */
  readonly limits: BodyLimitSet;
  /** Whether JSON answers are compressed for clients that accept it (`COMPRESSION`). */
  readonly compression: boolean;
  /**
   * Runs `answer` holding a permit of the body's kind when the request's body is large (see
   * `body-permits.ts`); called only once the caller's access is checked.
   */
  readonly withBodyPermit: (
    c: HonoContext,
    kind: BodyKind,
    answer: () => Promise<Response>,
  ) => Promise<Response>;
  /** Whole answers of reusable routes (`cache/cache-policy.ts`). */
  readonly responses: ResponseCache;
  /** The cache headers of `/published` GET answers (`published-caching.ts`; absent: `no-cache`). */
  readonly published?: PublishedCaching | undefined;
}

/**
 * Mounts the REST routes (docs/http-api.md) from the route table: each route reads its input from
 * where the table says (path, query, body fields, or the body as the config), validates it with the
 * operation's zod input, runs the operation — the same code `/trpc` runs, with the same access rule — and
 * answers. The adapter owns only what HTTP owns: body limits and media type, path decoding, statuses,
 * ETags, and reuse of whole answers. Other methods on a known path get 405 with `Allow`.
 */
export function mountRestRoutes(app: Hono, deps: RestDeps): void {
  for (const route of REST_ROUTES) {
    const reads = route.source !== 'none' && route.source !== 'query';
    const nameAt = route.configNameAt;
    const kind = routeBodyKind(route);
    const keyFirst = keyedByQuery(route);
    // Access first: an unauthorized caller gets 401/403 and neither waits for a permit nor has its body
    // read. Then a request with a large body waits for a permit before its body is read, and keeps it
    // until it is answered: the memory of large requests in flight stays bounded.
    const handler = (c: HonoContext) => {
      const { auth } = deps.context(c);
      // The path is split once, for the name check and for the input.
      const segments =
        route.pathParams.size > 0 ? pathSegments(c.req.url) : NO_SEGMENTS;
      const denied =
        accessDenied(auth, route.access) ??
        (nameAt === undefined
          ? null
          : nameDenied(auth, route.access, nameInPath(segments, nameAt)));
      if (denied !== null) throw HttpError.of(denied);
      return reads
        ? deps.withBodyPermit(c, kind, () =>
            handle(route, c, { deps, segments, keyFirst }),
          )
        : handle(route, c, { deps, segments, keyFirst });
    };
    switch (route.method) {
      case 'GET':
        app.get(route.honoPath, handler);
        break;
      case 'PUT':
        app.put(route.honoPath, handler);
        break;
      case 'PATCH':
        app.patch(route.honoPath, handler);
        break;
      case 'DELETE':
        app.delete(route.honoPath, handler);
        break;
      case 'POST':
        app.post(route.honoPath, handler);
        break;
    }
  }
  for (const [path, methods] of allowedMethods()) {
    const honoPath = path.replace(/\{(\w+)\}/g, ':$1');
    app.all(honoPath, () => {
      throw new HttpError(405, `method not allowed; use ${methods}`, {
        Allow: methods,
      });
    });
  }
}

/**
 * Whether a route's kept answers are looked up before its input is assembled: a reusable route whose whole
 * input is the query string (no path parameters, no header fields), which its reuse key holds as received.
 * Only answers of valid inputs are kept, so a kept answer's input needs no second reading.
 */
export function keyedByQuery(route: RestRoute): boolean {
  return (
    route.reusable &&
    (route.source === 'query' || route.source === 'none') &&
    route.pathParams.size === 0 &&
    Object.keys(route.headers).length === 0
  );
}

/** What a route's handler hands on: the app's dependencies and the request's path segments. */
interface Asked {
  readonly deps: RestDeps;
  readonly segments: readonly string[];
  /** {@link keyedByQuery} of the route. */
  readonly keyFirst: boolean;
}

async function handle(
  route: RestRoute,
  c: HonoContext,
  { deps, segments, keyFirst }: Asked,
): Promise<Response> {
  const ctx = deps.context(c);
  const named =
    route.configNameAt === undefined
      ? undefined
      : nameInPath(segments, route.configNameAt);
  const encoding = encodingFor(c, deps.compression);
  const caching =
    route.method === 'GET' && isPublishedPath(route.path)
      ? deps.published
      : undefined;
  // Whole answers are kept per view: callers who may read different names never share one.
  const reuseOf = (body: ReceivedJson | undefined) =>
    responseReuse(route, c, { ctx, body, responses: deps.responses });
  const early = keyFirst ? await reuseOf(undefined) : undefined;
  if (early?.kept !== undefined) {
    return keptAnswer(c, early.kept, { encoding, caching });
  }
  const pending = rawInput(route, c, {
    limits: routeBodyLimits(route, deps.limits),
    segments,
    held: () => ctx.services.configs.editTemplate(named),
  });
  const raw = pending instanceof Promise ? await pending : pending;
  const reuse = keyFirst
    ? early
    : route.reusable
      ? await reuseOf(raw.body)
      : undefined;
  if (reuse?.kept !== undefined) {
    return keptAnswer(c, reuse.kept, { encoding, caching });
  }
  const outcome = await run(route, ctx, { raw, request: c.req.raw });
  const headers = answerHeaders(c);
  // Key management answers (a new key's secret) are kept by no cache on the way.
  if (route.access === 'admin') headers['Cache-Control'] = 'no-store';
  if (route.immutable) Object.assign(headers, IMMUTABLE_CACHING);
  // A write that names its new version (PUT, PATCH, a restore) says so in `ETag`.
  if (outcome.etag !== undefined) headers['ETag'] = outcome.etag;
  switch (route.representation) {
    case 'none':
      return new Response(null, { status: 204, headers });
    case 'entry':
      if (caching !== undefined) {
        headers['Surrogate-Key'] = surrogateKeys(named);
        headers['Cache-Tag'] = surrogateKeys(named).replace(' ', ',');
      }
      return entryResponse(c, outcome, { encoding, headers, caching });
    case 'json': {
      const body = outcome.text?.() ?? JSON.stringify(outcome.value);
      reuse?.keep(body, outcome.validUntil);
      if (caching !== undefined) {
        return publishedJson(c, body, { encoding, caching, name: named });
      }
      if (route.status === 200) return jsonResponse(body, encoding, headers);
      const response = await jsonResponse(body, encoding, headers);
      return new Response(response.body, {
        status: route.status,
        headers: response.headers,
      });
    }
  }
}

/** A kept answer: as JSON, or as a `/published` JSON answer when `caching` is given. */
function keptAnswer(
  c: HonoContext,
  kept: string,
  answer: { encoding: Encoding | null; caching: PublishedCaching | undefined },
): Response | Promise<Response> {
  const { encoding, caching } = answer;
  return caching === undefined
    ? jsonResponse(kept, encoding, answerHeaders(c))
    : publishedJson(c, kept, { encoding, caching, name: undefined });
}

/**
 * A JSON answer of `/published` (a list, a search): its cache headers, a strong ETag of its bytes, and
 * 304 when the client holds them.
 */
async function publishedJson(
  c: HonoContext,
  body: string,
  answer: {
    encoding: Encoding | null;
    caching: PublishedCaching;
    name: string | undefined;
  },
): Promise<Response> {
  const etag = bodyEtag(body);
  const keys = surrogateKeys(answer.name);
  // Added one by one (a spread followed by more properties is slow in V8, see `entryResponse`).
  const headers = answerHeaders(c);
  headers['Cache-Control'] = answer.caching.cacheControl;
  headers['Vary'] = answer.caching.vary;
  headers['ETag'] = etag;
  headers['Surrogate-Key'] = keys;
  headers['Cache-Tag'] = keys.replace(' ', ',');
  const match = c.req.header('if-none-match');
  if (match !== undefined && etagMatches(match, etag)) {
    return new Response(null, { status: 304, headers });
  }
  return jsonResponse(body, answer.encoding, headers);
}

/**
 * Validates the input with the operation's schema and runs it; errors come out as the client sees
 * them (a domain error as its HTTP answer, `errors.ts`).
 */
async function run(
  route: RestRoute,
  ctx: Context,
  { raw, request }: { readonly raw: RawInput; readonly request: Request },
): Promise<Outcome<unknown>> {
  const parsed = route.operation.input.safeParse(raw.input);
  if (!parsed.success) {
    // Over REST, a field read from a header is named as the header (`If-None-Match`, not `ifNoneMatch`).
    const issues = (issuesOf(parsed.error) ?? []).map((issue) => {
      const [first, ...rest] = issue.path;
      const header =
        typeof first === 'string' ? route.headers[first] : undefined;
      return header === undefined
        ? issue
        : { ...issue, path: [header, ...rest] };
    });
    throw new HttpError(400, describeIssues(issues) || 'the input is invalid');
  }
  try {
    // No output validation here: outputs are typed by the operation, and the stored data they carry
    // is passed through by reference (see the output schemas in `shared`).
    return await route.operation.run(
      ctx,
      parsed.data,
      new RestReceived(
        typeof route.source === 'object' ? raw.body : undefined,
        request,
      ),
    );
  } catch (error) {
    throw error instanceof DomainError ? HttpError.of(error) : error;
  }
}

/**
 * What a REST route hands its operation besides the input. The request's signal is made on first use:
 * most operations never wait, and it costs an AbortController. (A getter on a class, not in an object
 * literal: a literal with a getter is built in V8's slow dictionary mode on every request.)
 */
class RestReceived implements Received {
  readonly body: ReceivedJson | undefined;
  readonly #request: Request;

  constructor(body: ReceivedJson | undefined, request: Request) {
    this.body = body;
    this.#request = request;
  }

  get signal(): AbortSignal {
    return this.#request.signal;
  }
}
