/**
 * Webhooks (docs/publishing.md, "Webhooks"): a receiver URL, the kinds of events it wants and the config
 * names it is told about. Every event is an entry of the one log of changes; a hook follows that log with
 * a cursor of its own, so nothing is queued beside it.
 */
import { z } from 'zod';
import { wholeNumber } from './history.js';
import { KEY_PATTERNS_MAX, NamePatternSchema } from './keys.js';

/**
 * The kinds of events a hook may ask for: a config written or deleted (`change`), published or unpublished,
 * and a link of a config confirmed broken or working again.
 */
export const HOOK_EVENTS = [
  'change',
  'publish',
  'unpublish',
  'link-broken',
  'link-recovered',
] as const;
export const HookEventSchema = z.enum(HOOK_EVENTS, {
  error: `must be one of ${HOOK_EVENTS.join(', ')}`,
});
export type HookEvent = z.infer<typeof HookEventSchema>;

/** Longest receiver URL. */
export const HOOK_URL_MAX = 2048;

/** Most deliveries one `GET /hooks/{id}/log` answers. */
export const HOOK_LOG_LIMITS = { defaultLimit: 50, maxLimit: 500 } as const;

const HookUrlSchema = z
  .string({ error: 'must be a string' })
  .max(HOOK_URL_MAX, { error: `must be at most ${HOOK_URL_MAX} characters` })
  .refine(
    (text) => {
      if (!URL.canParse(text)) return false;
      const url = new URL(text);
      return (
        (url.protocol === 'https:' || url.protocol === 'http:') &&
        url.username === '' &&
        url.password === ''
      );
    },
    { error: 'must be an http:// or https:// URL without credentials' },
  );

/** `POST /hooks`: a new hook. */
export const CreateHookInputSchema = z.object({
  url: HookUrlSchema.describe('where each event is POSTed'),
  events: z
    .array(HookEventSchema, { error: 'must be a list of event kinds' })
    .min(1, { error: 'must name at least one kind of event' })
    .max(HOOK_EVENTS.length)
    .describe('the kinds of events sent'),
  configs: z
    .array(NamePatternSchema, { error: 'must be a list of name patterns' })
    .min(1, { error: 'must name at least one pattern' })
    .max(KEY_PATTERNS_MAX, {
      error: `must have at most ${KEY_PATTERNS_MAX} patterns`,
    })
    .describe(
      'config-name patterns: only events about matching configs are sent',
    ),
});
export type CreateHookInput = z.infer<typeof CreateHookInputSchema>;

/** A hook as callers see it: everything but its secret. */
export const HookSchema = z.object({
  id: z.string(),
  url: z.string(),
  events: z.array(HookEventSchema),
  configs: z.array(z.string()),
  createdAt: z.string(),
  cursor: z
    .number()
    .int()
    .describe('the id of the last log entry the hook is done with'),
  attempts: z
    .number()
    .int()
    .describe('failed attempts at the event after the cursor (0: none)'),
  failingSince: z
    .string()
    .nullable()
    .describe('when the first of those attempts failed; null: not failing'),
  lastError: z.string().nullable().describe('what the last failed attempt got'),
});
export type Hook = z.infer<typeof HookSchema>;

/** The answer of `POST /hooks`: the hook and its signing secret, shown this once. */
export const CreateHookOutputSchema = HookSchema.extend({
  secret: z.string().meta({
    description:
      'The signing secret (`whsec_…`): shown only in this answer; the server keeps it to sign deliveries',
  }),
});
export type CreateHookOutput = z.infer<typeof CreateHookOutputSchema>;

/** `GET /hooks`. */
export const ListHooksOutputSchema = z.object({ hooks: z.array(HookSchema) });
export type ListHooksOutput = z.infer<typeof ListHooksOutputSchema>;

const HookIdSchema = z
  .string()
  .min(1, { error: 'must not be empty' })
  .max(64, { error: 'must be at most 64 characters' })
  .describe('The id of the hook (as `GET /hooks` lists it)');

/** `DELETE /hooks/{id}`. */
export const HookIdInputSchema = z.object({ id: HookIdSchema });
export type HookIdInput = z.infer<typeof HookIdInputSchema>;

/** `GET /hooks/{id}/log`. */
export const HookLogInputSchema = z.object({
  id: HookIdSchema,
  limit: wholeNumber(
    1,
    `Deliveries to answer, newest first (default ${HOOK_LOG_LIMITS.defaultLimit}, at most ${HOOK_LOG_LIMITS.maxLimit}).`,
    HOOK_LOG_LIMITS.maxLimit,
  ).default(HOOK_LOG_LIMITS.defaultLimit),
});
export type HookLogInput = z.input<typeof HookLogInputSchema>;

/** One attempt at delivering one event to one hook. */
export const HookDeliverySchema = z.object({
  eventId: z
    .number()
    .int()
    .describe('the log id of the event (its idempotency id)'),
  type: z.string().describe('the event kind'),
  attempt: z.number().int().describe('1 for the first attempt at this event'),
  at: z.string().describe('when the attempt was made (ISO 8601)'),
  status: z
    .number()
    .int()
    .nullable()
    .describe("the receiver's HTTP status; null: no answer"),
  error: z
    .string()
    .nullable()
    .describe(
      'why it failed (`timeout`, `connect`, `HTTP 500`, `gave up`, …); null: delivered',
    ),
  durationMs: z.number().int(),
});
export type HookDelivery = z.infer<typeof HookDeliverySchema>;

export const HookLogOutputSchema = z.object({
  id: z.string(),
  deliveries: z.array(HookDeliverySchema),
});
export type HookLogOutput = z.infer<typeof HookLogOutputSchema>;

/** What a receiver gets: one event, the body of one signed POST. */
export const HookPayloadSchema = z.object({
  id: z
    .number()
    .int()
    .describe('the log id: the same on every attempt (deduplicate by it)'),
  type: HookEventSchema,
  at: z.string().describe('when it happened (ISO 8601)'),
  configs: z
    .array(z.string())
    .describe(
      "the configs it is about (only those within the hook's patterns)",
    ),
  data: z.record(z.string(), z.unknown()).describe('the facts of the event'),
});
export type HookPayload = z.infer<typeof HookPayloadSchema>;
