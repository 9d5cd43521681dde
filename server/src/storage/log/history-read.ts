/**
 * Reading revisions back, the same for every adapter: an adapter fetches the stored records of one name
 * from the keyframe the first wanted revision's chain starts at, and this turns them into texts.
 */
import type { StoredRevision } from '../config-repository.js';
import { ChainReader, keyframeText } from './revision-content.js';
import type { RevisionRecord } from './revision-write.js';

/**
 * The revisions `from`–`to` with their texts, from `records`: the records of one name in revision order,
 * starting at (or before) the keyframe of `from`'s chain and running through `to`. Keyframes are
 * inflated off the event loop (a large config's is most of the work); the deltas after one cost the
 * blocks they touch.
 */
export async function materialize(
  records: Iterable<RevisionRecord>,
  from: number,
  to: number,
): Promise<StoredRevision[]> {
  const reader = new ChainReader();
  const out: StoredRevision[] = [];
  for (const { meta, content } of records) {
    if (meta.rev > to) break;
    if (content !== null && content.base === meta.rev) {
      reader.start(await keyframeText(content.data));
    } else if (content !== null) reader.apply(content, meta.rev);
    if (meta.rev < from) continue;
    out.push({ meta, json: content === null ? null : reader.text() });
  }
  return out;
}

/** Clamps a page size to 1…`max`. */
export const pageLimit = (limit: number, max = 10_000): number =>
  Math.max(1, Math.min(max, Math.floor(limit)));
