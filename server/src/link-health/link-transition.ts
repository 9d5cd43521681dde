/**
 * The rules of a URL's state (docs/link-health.md#states), as one pure function: the record before a check,
 * what the check found and the time give the record after it, the event to tell (once per change of
 * state) and whether a failure was cleared before it was confirmed (a false alarm the rule prevented).
 *
 * - A success (`ok`, `redirected`) sets the state at once and clears any unconfirmed failure.
 * - A failure (`broken`, `unreachable`) is confirmed only by a second failure at least `confirmMs` after
 *   the first, with no success between; until then the state stays as it was and the failure waits.
 * - `retry` (429, or 503 with `Retry-After`) counts for nothing: the URL is asked again later.
 * - `blocked` (robots.txt, the outbound guard) is a state of its own, set at once.
 */
import { isConfirmedFailure } from '@linkconfig/shared';
import type { LinkHealthRecord, LinkState } from '@linkconfig/shared';

/** What one check of a URL found. */
export interface CheckOutcome {
  readonly kind: Exclude<LinkState, 'unchecked'> | 'retry';
  /** The final answer's HTTP status; `null` when there was none. */
  readonly status: number | null;
  /** Where the redirects ended (`null`: no answer). */
  readonly finalUrl: string | null;
  /** The evidence in words (`HTTP 404`, `timeout`, `robots.txt`, `refused: loopback`). */
  readonly reason: string | null;
  /** For `retry`: when to ask again, ms from now. */
  readonly retryAfterMs?: number;
}

/** The timing rules (`LINK_CHECK_EVERY`, `LINK_CHECK_CONFIRM`). */
export interface CheckTiming {
  readonly everyMs: number;
  readonly confirmMs: number;
}

/** A check's effect on its URL. */
export interface Transition {
  readonly record: LinkHealthRecord;
  readonly event: 'link-broken' | 'link-recovered' | null;
  /** A success cleared a failure that was not yet confirmed. */
  readonly clearedFailure: boolean;
}

const iso = (ms: number): string => new Date(ms).toISOString();

/** What a check found, and when. */
export interface CheckResult {
  readonly outcome: CheckOutcome;
  readonly now: number;
}

/** The record after a check that found `outcome` at `now`. */
export function transition(
  before: LinkHealthRecord,
  { outcome, now }: CheckResult,
  timing: CheckTiming,
): Transition {
  const evidence = {
    checkedAt: iso(now),
    status: outcome.status,
    finalUrl: outcome.finalUrl,
    reason: outcome.reason,
  };
  const enter = (state: LinkState) => ({
    state,
    since:
      before.state === state && before.since !== null ? before.since : iso(now),
  });
  const wasFailed = isConfirmedFailure(before.state);
  switch (outcome.kind) {
    case 'ok':
    case 'redirected':
      return {
        record: {
          ...before,
          ...evidence,
          ...enter(outcome.kind),
          failingSince: null,
          failures: 0,
          nextAt: now + timing.everyMs,
        },
        event: wasFailed ? 'link-recovered' : null,
        clearedFailure: !wasFailed && before.failingSince !== null,
      };
    case 'blocked':
      return {
        record: {
          ...before,
          ...evidence,
          ...enter('blocked'),
          failingSince: null,
          failures: 0,
          nextAt: now + timing.everyMs,
        },
        event: null,
        clearedFailure: false,
      };
    case 'retry':
      return {
        record: {
          ...before,
          ...evidence,
          nextAt: now + (outcome.retryAfterMs ?? timing.confirmMs),
        },
        event: null,
        clearedFailure: false,
      };
    case 'broken':
    case 'unreachable': {
      const failures = before.failures + 1;
      if (wasFailed) {
        return {
          record: {
            ...before,
            ...evidence,
            ...enter(outcome.kind),
            failures,
            nextAt: now + timing.everyMs,
          },
          event: null,
          clearedFailure: false,
        };
      }
      const first =
        before.failingSince === null ? now : Date.parse(before.failingSince);
      if (now - first >= timing.confirmMs) {
        return {
          record: {
            ...before,
            ...evidence,
            ...enter(outcome.kind),
            failingSince: null,
            failures,
            nextAt: now + timing.everyMs,
          },
          event: 'link-broken',
          clearedFailure: false,
        };
      }
      // Not confirmed yet: the state stays; the next check is when a failure would confirm it.
      return {
        record: {
          ...before,
          ...evidence,
          failingSince: iso(first),
          failures,
          nextAt: first + timing.confirmMs,
        },
        event: null,
        clearedFailure: false,
      };
    }
  }
}
