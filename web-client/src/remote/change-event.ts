/**
 * The data of one `change` event of the server's feed (`GET /events`). The feed is read from the network,
 * so its data is checked before anything acts on it — with the schema the server writes its events by,
 * from `@linkconfig/shared`, so the contract of the feed is written once.
 */
import { ChangeEventSchema as ChangeDataSchema } from '@linkconfig/shared';
import { z } from 'zod';

/**
 * One committed change on the server, with the feed's event id (resume point): the shared schema of the
 * `data:` JSON plus the id, which travels in the SSE `id:` line rather than in the data.
 */
export const ChangeEventSchema = ChangeDataSchema.extend({
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
  const parsed = ChangeDataSchema.safeParse(json);
  return parsed.success ? { ...parsed.data, id } : null;
}
