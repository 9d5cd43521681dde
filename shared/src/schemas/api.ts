import { z } from 'zod';
import { ConfigEntrySchema, LinkConfigSchema } from './link-config.js';
import type { LinkConfig } from './link-config.js';
import { LinkSchema, ResolvedLinkSchema } from './link.js';
import type { Link, ResolvedLink } from './link.js';
import { isPlainObject } from '../util/is-plain-object.js';
import { LIMITS } from './limits.js';

/** The error body of every non-2xx response. */
export const ErrorBodySchema = z.object({ error: z.string() });
/** The error body of every non-2xx response. */
export type ErrorBody = z.infer<typeof ErrorBodySchema>;

// eslint-disable-next-line no-control-regex -- the point is to find control characters
const CONTROL_CHARS = /[\u0000-\u001f\u007f-\u009f]/;

/** A lone surrogate: text that is not well-formed UTF-16 (it could not be stored or sent back intact). */
const LONE_SURROGATE =
  /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * Orders config names by Unicode code point, as `GET /configs` promises (UTF-16 code-unit order, what `<`
 * gives, differs for characters above U+FFFF).
 */
export function compareNames(a: string, b: string): number {
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) {
    const x = a.codePointAt(i) ?? 0;
    const y = b.codePointAt(i) ?? 0;
    if (x !== y) return x - y;
    if (x > 0xffff) i++;
  }
  return a.length - b.length;
}

/** A config name: 1–256 characters, no control characters. Any other character is allowed. */
export const ConfigNameSchema = z
  .string({ error: 'must be a string' })
  .min(1, { error: 'must not be empty' })
  .max(LIMITS.nameMaxLength, {
    error: `must be at most ${LIMITS.nameMaxLength} characters`,
  })
  .refine((name) => !CONTROL_CHARS.test(name), {
    error: 'must not contain control characters',
  })
  .refine((name) => !LONE_SURROGATE.test(name), {
    error: 'must be well-formed Unicode (no lone surrogates)',
  })
  // URL paths normalize `.` and `..` away, so REST could never read or delete such a name.
  .refine((name) => name !== '.' && name !== '..', {
    error: 'must not be "." or ".." (a URL path cannot address them)',
  });

/** A link expression: a non-empty string of at most 64 KiB. */
export const ExpressionSchema = z
  .string({ error: 'must be a string' })
  .min(1, { error: 'must not be empty' })
  .max(LIMITS.expressionMaxLength, {
    error: `must be at most ${LIMITS.expressionMaxLength} characters`,
  });

/**
 * Schemas the OpenAPI document shows once, under `components.schemas`, and refers to by `$ref` wherever
 * an output passes stored data through unchecked ({@link asStored}).
 */
export const DOCUMENTED_SCHEMAS = {
  LinkConfig: LinkConfigSchema,
  Link: LinkSchema,
  ResolvedLink: ResolvedLinkSchema,
} as const;

/** OpenAPI metadata that documents a `z.custom` schema as a `$ref` to one of {@link DOCUMENTED_SCHEMAS}. */
function documentedAs(
  id: keyof typeof DOCUMENTED_SCHEMAS,
  wrap: 'one' | 'record' | 'array' = 'one',
) {
  return {
    override: ({ jsonSchema }: { jsonSchema: Record<string, unknown> }) => {
      for (const key of Object.keys(jsonSchema)) delete jsonSchema[key];
      const ref = { $ref: `#/components/schemas/${id}` };
      if (wrap === 'one') Object.assign(jsonSchema, ref);
      else if (wrap === 'array')
        Object.assign(jsonSchema, { type: 'array', items: ref });
      else
        Object.assign(jsonSchema, {
          type: 'object',
          additionalProperties: ref,
        });
    },
  };
}

/**
 * An output schema that checks only "is a JSON object" and passes the value on as the same reference, so
 * stored configs and links keep their key order and unknown keys in responses (a zod object would rebuild
 * and reorder them) and large outputs cost nothing to check. The OpenAPI document shows the documented
 * schema.
 */
export function asStored<T>(
  id: keyof typeof DOCUMENTED_SCHEMAS,
  wrap: 'one' | 'record' = 'one',
) {
  return z.custom<T>(isPlainObject).meta(documentedAs(id, wrap));
}

/**
 * A config supplied inline in a request. Only "is an object" is checked here (no copy, no key reordering);
 * the service runs `validateLinkConfig` on it. A config stored over REST keeps its received text because
 * the body travels to the service with it (`ReceivedJson` in the server), not through this schema.
 */
export const InlineConfigSchema = z
  .custom<LinkConfig>(isPlainObject, {
    error: 'must be a JSON object (an inline config)',
  })
  .meta(documentedAs('LinkConfig'));

export const ListConfigsOutputSchema = z.array(z.string());
export const ConfigNameInputSchema = z.object({ name: ConfigNameSchema });
export type ConfigNameInput = z.infer<typeof ConfigNameInputSchema>;
/** `GET /configs/:name`: the name, and with `links=healthy` the links confirmed broken left out. */
export const GetConfigInputSchema = ConfigNameInputSchema.extend({
  links: z
    .enum(['all', 'healthy'])
    .meta({
      description:
        '`healthy`: leave out links the link checker confirmed broken or unreachable (an answer without ETag); default `all`.',
    })
    .optional(),
});
export type GetConfigInput = z.infer<typeof GetConfigInputSchema>;
/** `GET /configs/:name`: the entry, its config passed on as stored (see {@link asStored}). */
export const GetConfigOutputSchema = z.object({
  config: asStored<LinkConfig>('LinkConfig'),
  meta: ConfigEntrySchema.shape.meta,
});
/**
 * An `If-Match` value, as the header carries it: `*` or a comma-separated list of quoted entity tags
 * (`"k3-m5x1"`), usually the one ETag the caller got with the version it edited.
 */
export const IfMatchSchema = z
  .string({ error: 'must be a string' })
  .min(1, { error: 'must not be empty' })
  .max(4096, { error: 'must be at most 4096 characters' });

/**
 * `configs.put`: `ifMatch` stores only over the version with that ETag (`*`: over any existing one);
 * `ifNoneMatch: '*'` stores only when the name does not exist. Without them, PUT overwrites.
 */
export const PutConfigInputSchema = z.object({
  name: ConfigNameSchema,
  config: InlineConfigSchema,
  ifMatch: IfMatchSchema.optional(),
  ifNoneMatch: z
    .literal('*', { error: 'supports only "*" (create only)' })
    .optional(),
});
export type PutConfigInput = z.infer<typeof PutConfigInputSchema>;
/** What a stored write answers: the new version's ETag (REST sends it as the `ETag` header). */
export const PutConfigOutputSchema = z.object({ etag: z.string() });
export type PutConfigOutput = z.infer<typeof PutConfigOutputSchema>;
/** `configs.remove`: with `ifMatch`, deletes only the version with that ETag (`*`: any existing one). */
export const RemoveConfigInputSchema = z.object({
  name: ConfigNameSchema,
  ifMatch: IfMatchSchema.optional(),
});
export type RemoveConfigInput = z.infer<typeof RemoveConfigInputSchema>;

/** Fields `q` and `regex` of `/search` can look at. */
export const SEARCH_FIELDS = [
  'label',
  'url',
  'tags',
  'description',
  'id',
] as const;
export type SearchField = (typeof SEARCH_FIELDS)[number];

const optionalText = z
  .string()
  .optional()
  .transform((v) => (v === '' ? undefined : v));

/** A `/search` pattern: empty counts as absent; at most 1000 characters. */
const patternText = optionalText.refine(
  (v) => v === undefined || v.length <= LIMITS.searchPatternMaxLength,
  {
    error: `must be at most ${LIMITS.searchPatternMaxLength} characters`,
  },
);

const searchFields = z
  .string()
  .optional()
  .transform((value, ctx): SearchField[] => {
    if (value === undefined || value.trim() === '') return [...SEARCH_FIELDS];
    const out: SearchField[] = [];
    for (const raw of value.split(',')) {
      const field = raw.trim();
      if (!(SEARCH_FIELDS as readonly string[]).includes(field)) {
        ctx.addIssue({
          code: 'custom',
          message: `must list only ${SEARCH_FIELDS.join(', ')} (got "${field}")`,
        });
        return z.NEVER;
      }
      if (!out.includes(field as SearchField)) out.push(field as SearchField);
    }
    return out;
  });

const searchLimit = z
  .union([z.number(), z.string()])
  .optional()
  .transform((value, ctx): number => {
    if (value === undefined || value === '') return LIMITS.searchLimitDefault;
    // Any run of digits is an integer; beyond the maximum it is clamped like 5000 is.
    const digits =
      typeof value === 'string' ? /^\s*(\d+)\s*$/.exec(value)?.[1] : undefined;
    const n =
      typeof value === 'number'
        ? value
        : digits === undefined
          ? NaN
          : digits.replace(/^0+/, '').length > 6
            ? LIMITS.searchLimitMax
            : Number(digits);
    if (!Number.isSafeInteger(n) || n < 1) {
      ctx.addIssue({ code: 'custom', message: 'must be an integer ≥ 1' });
      return z.NEVER;
    }
    return Math.min(n, LIMITS.searchLimitMax);
  });

/**
 * `GET /search` query parameters. Empty `tag`, `q`, `regex` and `config` count as absent; `fields` is
 * parsed into a list; `limit` defaults to 100 and is clamped to 1000.
 */
export const SearchInputSchema = z
  .object({
    tag: optionalText.meta({
      description:
        'Links that carry exactly this tag (case-sensitive). Empty counts as absent.',
    }),
    q: optionalText.meta({
      description:
        'Case-insensitive substring, looked for in the fields named by `fields`. Empty counts as absent.',
    }),
    regex: patternText.meta({
      description:
        'Regular expression (RE2 syntax, case-insensitive, linear time; at most 1000 characters), looked for in the fields named by `fields`. Empty counts as absent.',
    }),
    fields: searchFields.meta({
      description:
        'Comma-separated fields that `q` and `regex` look at: `label`, `url`, `tags`, `description`, `id`. Default: all five.',
      example: 'label,description',
    }),
    config: patternText.meta({
      description:
        'Regular expression (RE2, case-insensitive): only configs whose name matches are searched.',
    }),
    limit: searchLimit.meta({
      override: ({ jsonSchema }: { jsonSchema: Record<string, unknown> }) => {
        for (const key of Object.keys(jsonSchema)) delete jsonSchema[key];
        Object.assign(jsonSchema, {
          type: 'integer',
          minimum: 1,
          default: LIMITS.searchLimitDefault,
          description: `Most results to return (default ${LIMITS.searchLimitDefault}); larger values are clamped to ${LIMITS.searchLimitMax}.`,
        });
      },
    }),
  })
  .refine(
    (s) => s.tag !== undefined || s.q !== undefined || s.regex !== undefined,
    {
      error: 'give at least one of tag, q or regex',
    },
  );
/** Parsed `/search` parameters. */
export type SearchInput = z.infer<typeof SearchInputSchema>;
/** `/search` parameters as a caller writes them. */
export type SearchInputRaw = z.input<typeof SearchInputSchema>;

export const SearchResultItemSchema = z.object({
  configName: z.string(),
  id: z.string(),
  link: asStored<Link>('Link'),
});
export const SearchOutputSchema = z.object({
  results: z.array(SearchResultItemSchema),
  configsSearched: z.number().int(),
  linksScanned: z.number().int(),
});
/** The `/search` response. */
export type SearchOutput = z.infer<typeof SearchOutputSchema>;

/** `POST /cherry-pick`: `source` is a stored config's name or a config supplied inline. */
export const CherryPickInputSchema = z.object({
  source: z.union([ConfigNameSchema, InlineConfigSchema], {
    error: 'must be a config name or a config object',
  }),
  expression: ExpressionSchema,
});
export type CherryPickInput = z.infer<typeof CherryPickInputSchema>;
export const CherryPickOutputSchema = z.object({
  allLinks: asStored<Record<string, Link>>('Link', 'record'),
});
export type CherryPickOutput = z.infer<typeof CherryPickOutputSchema>;

/**
 * `POST /query`: `configs` (names or inline configs, merged in order) wins over `configName`, which
 * defaults to `demo`.
 */
export const QueryInputSchema = z.object({
  expression: ExpressionSchema,
  configName: ConfigNameSchema.optional(),
  configs: z
    .array(
      z.union([ConfigNameSchema, InlineConfigSchema], {
        error: 'must be a config name or a config object',
      }),
    )
    .min(1, { error: 'must not be empty' })
    .max(LIMITS.queryConfigsMax, {
      error: `must hold at most ${LIMITS.queryConfigsMax} items`,
    })
    .optional(),
});
export type QueryInput = z.infer<typeof QueryInputSchema>;
export const QueryOutputSchema = z.object({
  results: z.array(asStored<ResolvedLink>('ResolvedLink')),
});
export type QueryOutput = z.infer<typeof QueryOutputSchema>;
