/**
 * The raw input of a REST operation, read from where the route table says: the query string, the body
 * (its fields, or the whole body as one field), header fields and path parameters.
 */
import type { Context as HonoContext } from 'hono';
import { isPlainObject } from '@linkconfig/shared';
import type { EditTemplate, ReceivedJson } from '../../received-json.js';
import { nodeBindings } from '../client-address.js';
import { HttpError } from '../http-error.js';
import { readJsonBody } from '../middleware/json-body.js';
import type { BodyLimits } from '../middleware/json-body.js';
import { bodyProgress } from '../middleware/body-pace.js';
import { decodeSegment } from './path-segments.js';
import type { RestRoute } from './route-table.js';

/** An operation's raw input, and the body it was read from, if any. */
export interface RawInput {
  readonly input: unknown;
  readonly body: ReceivedJson | undefined;
}

/**
 * The operation's raw input, assembled from where the route table says, and the body if one was read (a
 * config body against the version `held` of its name: an edit of some links costs those links). Without
 * a body to read it is assembled at once (no promise).
 */
export function rawInput(
  route: RestRoute,
  c: HonoContext,
  asked: {
    limits: BodyLimits;
    segments: readonly string[];
    held: () => EditTemplate | undefined;
  },
): RawInput | Promise<RawInput> {
  const { source } = route;
  if (source !== 'fields' && typeof source !== 'object') {
    return assembled(route, c, { segments: asked.segments, body: undefined });
  }
  // A config body's depth is checked with the config itself, in one walk (ConfigService.put); every
  // other body (a merge patch too, which is applied before any config check) is checked here.
  const config = typeof source === 'object' && source.as === 'config';
  return readJsonBody(c.req.raw, asked.limits, {
    checkDepth: !config,
    progress: bodyProgress(c),
    incoming: nodeBindings(c)?.incoming,
    template: config ? asked.held() : undefined,
  }).then((body) => assembled(route, c, { segments: asked.segments, body }));
}

/** The raw input from the query or the body read (`body`), the header fields and the path parameters. */
function assembled(
  route: RestRoute,
  c: HonoContext,
  {
    segments,
    body,
  }: { segments: readonly string[]; body: ReceivedJson | undefined },
): RawInput {
  const fields: Record<string, unknown> = {};
  const { source } = route;
  // A URL without `?` has no query to parse.
  if (source === 'query' && c.req.url.includes('?')) {
    for (const [field, value] of Object.entries(c.req.query())) {
      fields[field] = textInput(route, field, value);
    }
  }
  if (body !== undefined) {
    if (!isPlainObject(body.inputValue)) {
      throw new HttpError(
        400,
        typeof source === 'object'
          ? `the body must be a JSON object: the ${source.as} itself`
          : 'the body must be a JSON object',
      );
    }
    if (typeof source === 'object') fields[source.as] = body.inputValue;
    else Object.assign(fields, body.inputValue);
  }
  for (const field in route.headers) {
    const value = c.req.header(route.headers[field] ?? '');
    if (value !== undefined) fields[field] = value;
  }
  // Path parameters last: nothing in a query or body can replace them.
  if (route.pathParams.size > 0) {
    for (const [index, param] of route.pathParams) {
      fields[param] = textInput(
        route,
        param,
        decodeSegment(segments[index] ?? '', param),
      );
    }
  }

  if (source === 'none' && route.pathParams.size === 0) {
    return { input: undefined, body };
  }
  return { input: fields, body };
}

/**
 * An input field read as text (a query parameter, a path segment): a number where the schema wants one
 * (`Number`: `'banana'` becomes NaN, which the schema refuses with its own words), else the text.
 */
function textInput(route: RestRoute, field: string, value: string): unknown {
  return route.numberFields.has(field) ? Number(value) : value;
}
