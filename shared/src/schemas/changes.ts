import { z } from 'zod';

/** What a change did to a name. */
export const CHANGE_OPS = ['put', 'delete'] as const;
export type ChangeOp = (typeof CHANGE_OPS)[number];

/**
 * One committed change, as the feed sends it: the `data` of an SSE `event: change` on `GET /events`,
 * whose `id:` is the change id. `etag` is the new version's ETag (`null` after a delete); `updatedAt` is
 * the time of the change.
 */
export const ChangeEventSchema = z.object({
  name: z.string(),
  op: z.enum(CHANGE_OPS),
  etag: z.string().nullable(),
  updatedAt: z.string(),
});
export type ChangeEvent = z.infer<typeof ChangeEventSchema>;

/**
 * A change id as clients send it back (`Last-Event-ID`, `?lastEventId=`, tRPC `lastEventId`): the decimal
 * id of the last event they received.
 */
export const EventIdSchema = z
  .string()
  .regex(/^\d{1,15}$/, { error: 'must be a decimal number (an event id)' });

/** `configs.changes` input: tRPC's `httpSubscriptionLink` fills `lastEventId` when it reconnects. */
export const ChangesInputSchema = z
  .object({ lastEventId: EventIdSchema.nullish() })
  .optional();
export type ChangesInput = z.infer<typeof ChangesInputSchema>;

/** The kinds of log events the change feed shows besides writes (SSE `event:` names, tRPC `type`). */
export const FEED_EVENTS = [
  'publish',
  'unpublish',
  'link-broken',
  'link-recovered',
] as const;
export type FeedEventType = (typeof FEED_EVENTS)[number];

/**
 * An event of the log about one config (a publish, an unpublish, a link's change of state), shown only to
 * readers who may read that config. On SSE it is `event: <type>` with `{ name, at, detail }` as data; the
 * `change` and `reset` events are unchanged.
 */
export const FeedEventSchema = z.object({
  type: z.enum(FEED_EVENTS),
  name: z.string(),
  at: z.string().describe('when it was logged (ISO 8601)'),
  detail: z
    .record(z.string(), z.unknown())
    .describe("its facts: a publish's rev, a link's url and state…"),
});
export type FeedEvent = z.infer<typeof FeedEventSchema>;

/**
 * One message of the `configs.changes` subscription: a change, or `reset` (the id the client resumed from
 * is older than the history the server keeps; it should list again, and then follows live changes).
 */
export const ChangeMessageSchema = z.discriminatedUnion('type', [
  ChangeEventSchema.extend({ type: z.literal('change') }),
  z.object({ type: z.literal('reset') }),
  FeedEventSchema,
]);
export type ChangeMessage = z.infer<typeof ChangeMessageSchema>;
