import { describe, expect, it } from 'vitest';
import type { LinkHealthRecord } from '@linkconfig/shared';
import { uncheckedRecord } from '../storage/link-health-store.js';
import { transition } from './link-transition.js';
import type { CheckOutcome } from './link-transition.js';

const T0 = Date.UTC(2026, 0, 1);
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const timing = { everyMs: 7 * DAY, confirmMs: DAY };
const ok: CheckOutcome = {
  kind: 'ok',
  status: 200,
  finalUrl: 'u',
  reason: null,
};
const notFound: CheckOutcome = {
  kind: 'broken',
  status: 404,
  finalUrl: 'u',
  reason: 'HTTP 404',
};
const timeout: CheckOutcome = {
  kind: 'unreachable',
  status: null,
  finalUrl: null,
  reason: 'timeout',
};

/** Runs checks in order, each at its time; answers the records and events. */
function run(
  steps: readonly [number, CheckOutcome][],
  from?: LinkHealthRecord,
) {
  let record = from ?? uncheckedRecord('u', T0);
  const events: (string | null)[] = [];
  let cleared = 0;
  for (const [at, outcome] of steps) {
    const next = transition(record, { outcome, now: at }, timing);
    record = next.record;
    events.push(next.event);
    if (next.clearedFailure) cleared++;
  }
  return { record, events, cleared };
}

describe('transition (the confirm rule)', () => {
  it('confirms a failure only by a second one at least confirmMs after the first', () => {
    expect(
      run([
        [T0, notFound],
        [T0 + DAY - 1, notFound],
      ]).record.state,
    ).toBe('unchecked');
    const confirmed = run([
      [T0, notFound],
      [T0 + HOUR, notFound],
      [T0 + DAY, notFound],
    ]);
    expect(confirmed.record).toMatchObject({
      state: 'broken',
      status: 404,
      failures: 3,
    });
    expect(confirmed.events).toEqual([null, null, 'link-broken']);
  });

  it('lets one success clear an unconfirmed failure (a prevented false alarm)', () => {
    const flapping = run([
      [T0, notFound],
      [T0 + DAY, ok],
      [T0 + 2 * DAY, notFound],
      [T0 + 3 * DAY, ok],
    ]);
    expect(flapping.record).toMatchObject({
      state: 'ok',
      failingSince: null,
      failures: 0,
    });
    expect(flapping.events).toEqual([null, null, null, null]);
    expect(flapping.cleared).toBe(2);
  });

  it('tells a change once: broken once, recovered once, nothing while it stays', () => {
    const { events, record } = run([
      [T0, ok],
      [T0 + DAY, timeout],
      [T0 + 2 * DAY, timeout],
      [T0 + 3 * DAY, notFound],
      [T0 + 4 * DAY, timeout],
      [T0 + 5 * DAY, ok],
      [T0 + 6 * DAY, ok],
    ]);
    expect(events).toEqual([
      null,
      null,
      'link-broken',
      null,
      null,
      'link-recovered',
      null,
    ]);
    expect(record.state).toBe('ok');
  });

  it('never counts a retry (429, 503 with Retry-After), and asks again when told', () => {
    const retry: CheckOutcome = {
      kind: 'retry',
      status: 429,
      finalUrl: 'u',
      reason: 'HTTP 429, asked again later',
      retryAfterMs: 120_000,
    };
    const { record, events } = run([
      [T0, notFound],
      [T0 + DAY, retry],
      [T0 + DAY + 5, retry],
    ]);
    expect(record).toMatchObject({
      state: 'unchecked',
      failures: 1,
      nextAt: T0 + DAY + 5 + 120_000,
    });
    expect(events).toEqual([null, null, null]);
  });

  it('sets blocked at once and keeps since while a state holds', () => {
    const blocked: CheckOutcome = {
      kind: 'blocked',
      status: null,
      finalUrl: null,
      reason: 'robots.txt',
    };
    const { record } = run([
      [T0, blocked],
      [T0 + DAY, blocked],
    ]);
    expect(record).toMatchObject({
      state: 'blocked',
      since: new Date(T0).toISOString(),
    });
  });
});
