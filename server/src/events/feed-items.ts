import { FEED_EVENTS } from '@linkconfig/shared';
import type { FeedEvent, FeedEventType } from '@linkconfig/shared';
import type {
  Change,
  ChangesPage,
  LogEvent,
} from '../storage/config-repository.js';
import { changeFrame, eventFrame } from './sse-frames.js';
import type { FeedItem } from './subscriber.js';

/** How a page of the log becomes the feed's items: each write, and the events readers are shown. */
function changeItem(change: Change): FeedItem {
  let frame: Uint8Array | undefined;
  return {
    id: change.id,
    name: change.name,
    change,
    event: undefined,
    frame: () => (frame ??= changeFrame(change)),
  };
}

const SHOWN: ReadonlySet<string> = new Set(FEED_EVENTS);

function eventItem(entry: LogEvent): FeedItem | null {
  if (!SHOWN.has(entry.type)) return null;
  const detail =
    typeof entry.detail === 'object' &&
    entry.detail !== null &&
    !Array.isArray(entry.detail)
      ? { ...(entry.detail as Record<string, unknown>) }
      : {};
  const event: FeedEvent = {
    type: entry.type as FeedEventType,
    name: entry.name,
    at: entry.at,
    detail,
  };
  let frame: Uint8Array | undefined;
  return {
    id: entry.id,
    name: entry.name,
    change: undefined,
    event,
    frame: () => (frame ??= eventFrame(entry.id, event)),
  };
}

/** The entries of a page the feed shows, in id order: every write, and the events of {@link FEED_EVENTS}. */
export function feedItems(
  page: Extract<ChangesPage, { reset: false }>,
): FeedItem[] {
  const items = page.changes.map(changeItem);
  if (page.events.length === 0) return items;
  for (const entry of page.events) {
    const item = eventItem(entry);
    if (item !== null) items.push(item);
  }
  return items.sort((a, b) => a.id - b.id);
}
