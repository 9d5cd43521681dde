/**
 * Where a URL's change of state goes (`link-broken`, `link-recovered`): the one function every event of
 * the checker passes through, once per change (the checker tells it only after its result is stored under
 * its lease, so one instance tells it). For now it writes the event to the log; the change feed and
 * webhooks take it from here once the log of changes accepts events that are not config writes.
 */
import type { LinkEvent } from '@linkconfig/shared';
import type { Logger } from 'pino';

/** Tells one link event. */
export function tellLinkEvent(event: LinkEvent, logger: Logger): void {
  logger.info({ linkEvent: event }, event.type);
}
