import { z } from 'zod';
import type { LinkConfig } from './link-config.js';
import { isPlainObject } from '../util/is-plain-object.js';

/*
 * The acceptance check for a stored config. It is deliberately narrower than LinkConfigSchema: it checks
 * only what every implementation of the contract needs (issue: "Nothing else is checked"), and it never
 * builds a new object, so what it accepts is stored byte for byte.
 */
const objectOf = (inner: z.ZodType) =>
  z
    .custom<Record<string, unknown>>(isPlainObject, {
      error: 'must be an object',
    })
    .superRefine((value, ctx) => {
      for (const key of Object.keys(value)) {
        const result = inner.safeParse(value[key]);
        if (!result.success) {
          for (const issue of result.error.issues) {
            ctx.addIssue({
              code: 'custom',
              message: issue.message,
              path: [key, ...issue.path],
            });
          }
        }
      }
    });

const storedLink = z
  .custom<Record<string, unknown>>(isPlainObject, {
    error: 'must be an object',
  })
  .refine((link) => typeof link['url'] === 'string', {
    error: 'must be a string',
    path: ['url'],
  });

const storedMacro = z
  .custom<Record<string, unknown>>(isPlainObject, {
    error: 'must be an object',
  })
  .refine((macro) => typeof macro['linkItems'] === 'string', {
    error: 'must be a string',
    path: ['linkItems'],
  });

const storedSearchPattern = z.custom<unknown>(
  (v) =>
    typeof v === 'string' ||
    (isPlainObject(v) && typeof v['pattern'] === 'string'),
  { error: 'must be a string or an object with a string pattern' },
);

/**
 * The zod check behind {@link validateLinkConfig}: `allLinks` required, an object of objects with a string
 * `url`; `macros`, `searchPatterns`, `settings` optional objects with their entries checked.
 */
export const StoredLinkConfigSchema = z
  .custom<Record<string, unknown>>(isPlainObject, {
    error: 'config must be a JSON object',
  })
  .superRefine((config, ctx) => {
    const sections: [string, z.ZodType | null, boolean][] = [
      ['allLinks', objectOf(storedLink), true],
      ['macros', objectOf(storedMacro), false],
      ['searchPatterns', objectOf(storedSearchPattern), false],
      ['settings', null, false],
    ];
    for (const [key, schema, required] of sections) {
      const value = config[key];
      if (!Object.hasOwn(config, key)) {
        if (required)
          ctx.addIssue({ code: 'custom', message: 'is required', path: [key] });
        continue;
      }
      if (!isPlainObject(value)) {
        ctx.addIssue({
          code: 'custom',
          message: 'must be an object',
          path: [key],
        });
        continue;
      }
      const result = schema?.safeParse(value);
      for (const issue of result?.success === false
        ? result.error.issues
        : []) {
        ctx.addIssue({
          code: 'custom',
          message: issue.message,
          path: [key, ...issue.path],
        });
      }
    }
  });

/** Formats a path as `allLinks.home.url`, quoting keys that are not plain identifiers. */
export function formatPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const segment of path) {
    if (typeof segment === 'number') out += `[${segment}]`;
    else if (typeof segment === 'string' && /^[A-Za-z_$][\w$]*$/.test(segment))
      out += out === '' ? segment : `.${segment}`;
    else out += `[${JSON.stringify(String(segment))}]`;
  }
  return out;
}

/** The outcome of {@link validateLinkConfig}. */
export type ConfigValidation =
  { ok: true; config: LinkConfig } | { ok: false; error: string; path: string };

/**
 * Checks that a value may be stored as a config, without changing it.
 *
 * On success the same object comes back (not a copy), typed as a config; on failure the first problem is
 * named by path and reason, e.g. `allLinks.home.url must be a string`.
 *
 * @example
 * const r = validateLinkConfig(JSON.parse(body));
 * if (!r.ok) return badRequest(r.error);
 */
export function validateLinkConfig(value: unknown): ConfigValidation {
  const result = StoredLinkConfigSchema.safeParse(value);
  if (result.success) return { ok: true, config: value as LinkConfig };
  const issue = result.error.issues[0];
  const path = formatPath(issue?.path ?? []);
  const reason = issue?.message ?? 'is invalid';
  return { ok: false, path, error: path === '' ? reason : `${path} ${reason}` };
}
