import { HttpError } from '../http-error.js';
import { requestUrl } from './path-segments.js';

/**
 * The `:name` path segment, decoded exactly once from the raw URL (so `%2F` and `%25` round-trip and
 * nothing is decoded twice). Bad percent-encoding → 400. Length and character rules are the zod schema's.
 */
export function configNameFromUrl(url: string): string {
  const { pathname } = requestUrl(url);
  // The router matched `<prefix>:name` on the decoded path; the raw segment is what follows the second
  // slash (a raw `/` cannot be in it, `%2F` can), however the prefix itself was encoded.
  const raw = pathname.slice(pathname.indexOf('/', 1) + 1);
  try {
    return decodeURIComponent(raw);
  } catch {
    throw new HttpError(
      400,
      'the config name in the path is not valid percent-encoding',
    );
  }
}
