/**
 * The two size limits of request bodies (issue 17, item 7). A body that stores a config (`PUT
 * /configs/:name`, `configs.put`) may be as large as `BODY_LIMIT`; every other body, the inline configs of
 * `/query`, `/cherry-pick` and `/expressions/check` among them, at most `INLINE_BODY_LIMIT` (lower by
 * default), because such a config is parsed, checked and prepared on every request and nothing of that
 * work is kept, while a stored config is prepared once per version.
 */
import { REST_ROUTES } from '../routes/route-table.js';
import type { RestRoute } from '../routes/route-table.js';
import type { BodyLimits } from './json-body.js';
import { HttpError } from '../http-error.js';
import {
  DEFAULT_BODY_LIMIT,
  DEFAULT_INLINE_BODY_LIMIT,
} from '../../config/limits.js';

export { DEFAULT_BODY_LIMIT, DEFAULT_INLINE_BODY_LIMIT };
/** Deepest accepted nesting of a JSON body. */
const MAX_DEPTH = 256;

/** The limits of the two kinds of body. */
export interface BodyLimitSet {
  readonly stored: BodyLimits;
  readonly inline: BodyLimits;
}

/**
 * The limits from the settings. The inline limit never exceeds `BODY_LIMIT`; when it is the lower one,
 * its 413 answers name it (`INLINE_BODY_LIMIT`), so a client sees which limit it met.
 */
export function bodyLimitSet(settings: {
  readonly bodyLimit?: number | undefined;
  readonly inlineBodyLimit?: number | undefined;
  /** `BODY_MIN_RATE`, for both kinds (absent: no floor). */
  readonly bodyMinRate?: number | undefined;
}): BodyLimitSet {
  const stored = settings.bodyLimit ?? DEFAULT_BODY_LIMIT;
  const inline = settings.inlineBodyLimit ?? DEFAULT_INLINE_BODY_LIMIT;
  const common = {
    maxDepth: MAX_DEPTH,
    ...(settings.bodyMinRate === undefined
      ? {}
      : { minBytesPerSecond: settings.bodyMinRate }),
  };
  return {
    stored: { maxBytes: stored, ...common },
    inline:
      inline < stored
        ? {
            maxBytes: inline,
            ...common,
            name: 'INLINE_BODY_LIMIT, for bodies that do not store a config',
          }
        : { maxBytes: stored, ...common },
  };
}

/**
 * The two kinds of body: `stored`, a config to store (or a merge patch of one), up to `BODY_LIMIT`; and
 * `inline`, every other body, up to `INLINE_BODY_LIMIT`. Each kind has its own limits and its own large-body
 * permits (`body-permits.ts`).
 */
export type BodyKind = keyof BodyLimitSet;

/** Whether a route's body is a config to store: its whole body is one input field. */
const storesConfig = (route: Pick<RestRoute, 'source'>): boolean =>
  typeof route.source === 'object';

/** The kind of a REST route's body. */
export function routeBodyKind(route: Pick<RestRoute, 'source'>): BodyKind {
  return storesConfig(route) ? 'stored' : 'inline';
}

/** The limits of a REST route's body. */
export function routeBodyLimits(
  route: Pick<RestRoute, 'source'>,
  limits: BodyLimitSet,
): BodyLimits {
  return limits[routeBodyKind(route)];
}

/**
 * The kind of a `/trpc` body calling `calls` (procedure paths, as `trpcCalls` resolves them; pass only the
 * calls the caller may make): `stored` when one of them stores a config (a batch carries its inputs in
 * one body), else `inline`. A caller who may not store a config never sends a body of that kind, however
 * its batch is named.
 */
export function trpcBodyKind(
  calls: readonly string[],
  routes: readonly RestRoute[] = REST_ROUTES,
): BodyKind {
  const storing = routes.filter(storesConfig).map((route) => route.id);
  return calls.some((call) => storing.includes(call)) ? 'stored' : 'inline';
}

/**
 * A batch's body is read under the stored limit when one of its calls stores a config; every other call's
 * input is still held to the inline limit, as its own request would be (413 naming the call otherwise).
 * `calls` are all the batch's calls in order (a batch body is `{"0": input, "1": input, …}`).
 */
export function refuseLargeInlineInputs(
  calls: readonly string[],
  body: unknown,
  limits: BodyLimitSet,
): void {
  if (calls.length < 2 || typeof body !== 'object' || body === null) return;
  const inputs = body as Record<string, unknown>;
  calls.forEach((call, i) => {
    const input = inputs[String(i)];
    if (input === undefined || trpcBodyKind([call]) === 'stored') return;
    const bytes = Buffer.byteLength(JSON.stringify(input));
    if (bytes > limits.inline.maxBytes) {
      const name =
        limits.inline.name === undefined ? '' : ` (${limits.inline.name})`;
      throw new HttpError(
        413,
        `the input of call ${i} (${call}) is larger than the limit of ${limits.inline.maxBytes} bytes${name}`,
      );
    }
  });
}
