/**
 * The request's path as the REST routes read it: split once into its raw segments, the config name in it
 * as the access check reads it, and a segment decoded as the input check reads it.
 */
import { HttpError } from '../http-error.js';

/**
 * The config name in the path, as the access check reads it before anything else (a segment that does
 * not decode is checked as it is; the input check then answers 400).
 */
export function nameInPath(segments: readonly string[], index: number): string {
  const raw = segments[index] ?? '';
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

/** The segments of a route without path parameters: none read. */
export const NO_SEGMENTS: readonly string[] = [];

/** The raw (still percent-encoded) segments of a request URL's path, as `URL.pathname` has them. */
export function pathSegments(url: string): string[] {
  return new URL(url).pathname.split('/');
}

/** A path segment decoded exactly once (`a%2Fb` is `a/b`, `%25` is `%`); bad encoding → 400. */
export function decodeSegment(raw: string, param: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    throw new HttpError(
      400,
      `the ${param} in the path is not valid percent-encoding`,
    );
  }
}
