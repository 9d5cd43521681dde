import { HttpError } from './http-error.js';

/**
 * The `:name` path segment, decoded exactly once from the raw URL (so `%2F` and `%25` round-trip and
 * nothing is decoded twice). Bad percent-encoding → 400. Length and character rules are the zod schema's.
 */
export function configNameFromUrl(url: string, prefix: string): string {
  const { pathname } = new URL(url);
  const raw = pathname.slice(prefix.length);
  try {
    return decodeURIComponent(raw);
  } catch {
    throw new HttpError(
      400,
      'the config name in the path is not valid percent-encoding',
    );
  }
}
