/**
 * The data of one `change` event of the server's feed (`GET /events`). The feed is read from the network,
 * so its data is checked before anything acts on it.
 */
import { z } from 'zod';

/** The JSON in the `data:` field of an `event: change` message. */
export const ChangeEventDataSchema = z.object({
  name: z.string(),
  op: z.enum(['put', 'delete']),
  /** The ETag of the version written; `null` for a delete. */
  etag: z.string().nullable(),
  updatedAt: z.string(),
});

/** One committed change on the server, with the feed's event id (resume point). */
export const ChangeEventSchema = ChangeEventDataSchema.extend({
  id: z.string(),
});
/** One committed change on the server. */
export type ChangeEvent = z.infer<typeof ChangeEventSchema>;

/** Parses the data of a `change` message; `null` when it is not a valid change. */
export function parseChangeEvent(id: string, data: string): ChangeEvent | null {
  let json: unknown;
  try {
    json = JSON.parse(data);
  } catch {
    return null;
  }
  const parsed = ChangeEventDataSchema.safeParse(json);
  return parsed.success ? { ...parsed.data, id } : null;
}
