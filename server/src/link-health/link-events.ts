/**
 * Where a URL's change of state goes (`link-broken`, `link-recovered`): the one function every event of
 * the checker passes through, once per change (the checker tells it only after its result is stored under
 * its lease, so one instance tells it). Each event is appended to the one log of changes, one entry per
 * config that holds the URL: webhooks read it there (`hooks/hook-log.ts`) like every other entry.
 */
import type { LinkEvent } from '@linkconfig/shared';
import type { Logger } from 'pino';
import type { ConfigRepository } from '../storage/config-repository.js';

/** The facts a link event keeps on the log (the config is the log event's name). */
export function linkEventDetail(event: LinkEvent): Record<string, unknown> {
  return {
    url: event.url,
    state: event.state,
    checkedAt: event.at,
    status: event.status,
    reason: event.reason,
  };
}

/**
 * Appends `event` to the log, once per config that holds the URL, then tells `then` (if any). A URL no
 * config holds any more appends nothing. A failure of the log is thrown (the checker reports it).
 */
export function appendLinkEvents(
  log: Pick<ConfigRepository, 'appendEvent'>,
  then?: (event: LinkEvent) => unknown,
): (event: LinkEvent) => Promise<void> {
  return async (event) => {
    const detail = linkEventDetail(event);
    for (const name of new Set(event.configs)) {
      await log.appendEvent({ type: event.type, name, detail });
    }
    await then?.(event);
  };
}

/** Tells one link event in the server's log of messages. */
export function tellLinkEvent(event: LinkEvent, logger: Logger): void {
  logger.info({ linkEvent: event }, event.type);
}
