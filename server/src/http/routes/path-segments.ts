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
  // Without `%` there is nothing to decode (and nothing malformed): the segment is the name.
  if (!raw.includes('%')) return raw;
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
  return rawPath(url).split('/');
}

/**
 * Characters the URL parser leaves as they are in a path (no percent-encoding added, no `\` read as
 * `/`, nothing stripped), and no `%2e` (a dot the parser would read in a dot segment).
 */
const PLAIN_PATH = /^\/(?:[A-Za-z0-9\-._~!$&'()*+,;=:@/]|%(?!2[eE]))*$/;
/** A `.` or `..` segment, which the parser removes. */
const DOT_SEGMENT = /\/\.\.?(?:\/|$)/;

/**
 * `URL.pathname` of an absolute URL, read straight from the text when the path is plain (the usual
 * case: a request URL as the server builds it): what lies between the authority and the first `?` or
 * `#`. Any other path is left to the URL parser (the same answer, at some thousand instructions more).
 */
export function rawPath(url: string): string {
  const scheme = url.indexOf('://');
  if (scheme > 0) {
    const start = url.indexOf('/', scheme + 3);
    const query = url.indexOf('?', scheme + 3);
    const fragment = url.indexOf('#', scheme + 3);
    const stop = Math.min(
      query < 0 ? url.length : query,
      fragment < 0 ? url.length : fragment,
    );
    // The authority (never empty) ends at the first `/`, unless a `\` (read as `/`) comes before it.
    const backslash = url.indexOf('\\', scheme + 3);
    if (
      start > scheme + 3 &&
      start < stop &&
      (backslash < 0 || backslash > start)
    ) {
      const path = url.slice(start, stop);
      if (PLAIN_PATH.test(path) && !DOT_SEGMENT.test(path)) return path;
    }
  }
  return requestUrl(url).pathname;
}

/**
 * The request's URL, parsed. The server builds it from the Host header, so a Host that is no host name
 * (`xn--a`, `999.999.999.999`) gives a URL the parser refuses: that is the client's error, a 400.
 */
export function requestUrl(url: string): URL {
  try {
    return new URL(url);
  } catch {
    throw new HttpError(
      400,
      'the request URL is not valid: the Host header must be a host name',
    );
  }
}

/** A path segment decoded exactly once (`a%2Fb` is `a/b`, `%25` is `%`); bad encoding → 400. */
export function decodeSegment(raw: string, param: string): string {
  if (!raw.includes('%')) return raw;
  try {
    return decodeURIComponent(raw);
  } catch {
    throw new HttpError(
      400,
      `the ${param} in the path is not valid percent-encoding`,
    );
  }
}
