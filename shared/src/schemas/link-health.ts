/**
 * Link health (docs/link-health.md): what the link checker knows of each distinct URL, and the shapes of
 * its routes. One record per URL, however many configs hold it.
 */
import { z } from 'zod';
import { ConfigNameSchema } from './api.js';
import { wholeNumber } from './history.js';

/**
 * The states of a URL: `ok`; `redirected` (permanently, to `finalUrl`); `broken` (an HTTP error,
 * confirmed); `unreachable` (no answer: DNS, connect, TLS, timeout; confirmed); `blocked` (robots.txt or
 * the outbound guard said no); `unchecked` (not yet known).
 */
export const LINK_STATES = [
  'ok',
  'redirected',
  'broken',
  'unreachable',
  'blocked',
  'unchecked',
] as const;
export const LinkStateSchema = z.enum(LINK_STATES);
export type LinkState = z.infer<typeof LinkStateSchema>;

/** The states of a link that is confirmed not to work: what "keep broken links out" removes. */
export const FAILED_LINK_STATES: readonly LinkState[] = [
  'broken',
  'unreachable',
];

/** Whether a link in `state` is confirmed broken or unreachable. */
export function isConfirmedFailure(state: LinkState): boolean {
  return FAILED_LINK_STATES.includes(state);
}

const isoTime = z.string().describe('ISO 8601');

/** What is known of one URL, with the evidence (as stored, and as kept in backups). */
export const LinkHealthRecordSchema = z.object({
  url: z.string().describe('the URL checked (without its #fragment)'),
  state: LinkStateSchema,
  since: isoTime.nullable().describe('when the URL entered its state'),
  checkedAt: isoTime.nullable().describe('when it was last checked'),
  status: z
    .number()
    .int()
    .nullable()
    .describe('HTTP status of the last answer; null: none'),
  finalUrl: z
    .string()
    .nullable()
    .describe('where the redirects of the last check ended'),
  reason: z
    .string()
    .nullable()
    .describe(
      'the evidence in words: `timeout`, `dns`, `connect`, `tls`, `robots.txt`, `refused: loopback`, `HTTP 404`, …',
    ),
  failingSince: isoTime
    .nullable()
    .describe(
      'first of the failures not yet confirmed (a second at least LINK_CHECK_CONFIRM later confirms); null: none',
    ),
  failures: z
    .number()
    .int()
    .min(0)
    .describe('failures in a row since failingSince'),
  nextAt: z
    .number()
    .int()
    .describe('when the next check is due (ms since the epoch)'),
});
export type LinkHealthRecord = z.infer<typeof LinkHealthRecordSchema>;

/** One link of a config with the health of its URL. */
export const LinkHealthEntrySchema = LinkHealthRecordSchema.omit({
  nextAt: true,
}).extend({
  id: z.string().describe("the link's id in its config"),
});
export type LinkHealthEntry = z.infer<typeof LinkHealthEntrySchema>;

/** `GET /configs/{name}/links/health`. */
export const ConfigLinkHealthInputSchema = z.object({ name: ConfigNameSchema });
export const ConfigLinkHealthOutputSchema = z.object({
  name: z.string(),
  links: z.array(LinkHealthEntrySchema),
  counts: z
    .partialRecord(LinkStateSchema, z.number().int())
    .describe('links per state (states without links left out)'),
});
export type ConfigLinkHealthOutput = z.infer<
  typeof ConfigLinkHealthOutputSchema
>;

/** `GET /links/health` page bounds. */
export const LINK_HEALTH_LIMITS = {
  defaultLimit: 100,
  maxLimit: 1000,
} as const;

/** `state` of `GET /links/health`: one state or several, comma-separated. */
const statesParameter = z
  .string()
  .transform((text, ctx) => {
    const states = text
      .split(',')
      .map((s) => s.trim())
      .filter((s) => s !== '');
    for (const state of states) {
      if (!(LINK_STATES as readonly string[]).includes(state)) {
        ctx.addIssue({
          code: 'custom',
          message: `must be states among ${LINK_STATES.join(', ')}`,
        });
        return z.NEVER;
      }
    }
    return states as LinkState[];
  })
  .meta({
    override: ({ jsonSchema }: { jsonSchema: Record<string, unknown> }) => {
      for (const key of Object.keys(jsonSchema)) delete jsonSchema[key];
      Object.assign(jsonSchema, {
        type: 'string',
        example: 'broken,unreachable',
        description: `Comma-separated states (${LINK_STATES.join(', ')}). Default: broken, unreachable and redirected.`,
      });
    },
  });

/** `GET /links/health`: links in some states across the configs the caller may read, a page at a time. */
export const LinksHealthInputSchema = z
  .object({
    state: statesParameter.optional(),
    limit: wholeNumber(
      1,
      'Links per page (default 100, at most 1000).',
      LINK_HEALTH_LIMITS.maxLimit,
    ).default(LINK_HEALTH_LIMITS.defaultLimit),
    after: z
      .string()
      .max(2048)
      .meta({ description: 'The `next` of the page before.' })
      .optional(),
  })
  .optional();
export type LinksHealthInput = z.input<typeof LinksHealthInputSchema>;

export const LinksHealthItemSchema = LinkHealthEntrySchema.extend({
  config: z.string(),
});
export type LinksHealthItem = z.infer<typeof LinksHealthItemSchema>;
export const LinksHealthOutputSchema = z.object({
  links: z.array(LinksHealthItemSchema),
  next: z
    .string()
    .nullable()
    .describe('`after` of the next page; null on the last page'),
});
export type LinksHealthOutput = z.infer<typeof LinksHealthOutputSchema>;

/** `POST /configs/{name}/links/check`: the config's URLs are checked soon. */
export const CheckLinksInputSchema = z.object({ name: ConfigNameSchema });
export const CheckLinksOutputSchema = z.object({
  urls: z.number().int().describe('distinct URLs of the config now due'),
});
export type CheckLinksOutput = z.infer<typeof CheckLinksOutputSchema>;

/** An event of a URL's change of state (change feed, webhooks): once per change, never repeated. */
export const LinkEventSchema = z.object({
  type: z.enum(['link-broken', 'link-recovered']),
  url: z.string(),
  state: LinkStateSchema,
  at: isoTime,
  status: z.number().int().nullable(),
  reason: z.string().nullable(),
  configs: z.array(z.string()).describe('the configs that hold the URL'),
});
export type LinkEvent = z.infer<typeof LinkEventSchema>;
