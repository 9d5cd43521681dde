/**
 * One attempt at delivering one event to one hook: a signed JSON POST through the outbound module (behind
 * the SSRF guard; redirects are not followed), with a time limit. Any 2xx answer is a delivery; anything
 * else (another status, no answer, a refusal by the guard) is a failed attempt, tried again later.
 */
import type { HookPayload } from '@linkconfig/shared';
import type { Clock } from '../clock.js';
import { OutboundError } from '../outbound/index.js';
import type { Outbound } from '../outbound/index.js';
import { SIGNATURE_HEADER, signatureHeader } from './hook-signature.js';

/** What an attempt got. */
export interface AttemptResult {
  /** The receiver's status; `null`: no answer. */
  readonly status: number | null;
  /** Why it failed; `null`: delivered. */
  readonly error: string | null;
  readonly durationMs: number;
}

/** What an attempt goes through. */
export interface DeliveryDeps {
  readonly outbound: Outbound;
  readonly clock: Clock;
  /** Time limit of the attempt, ms. */
  readonly timeoutMs: number;
}

/** Sends `payload` to the target's URL, signed with its secret. */
export async function attemptDelivery(
  { outbound, clock, timeoutMs }: DeliveryDeps,
  target: {
    readonly id: string;
    readonly url: string;
    readonly secret: string;
  },
  payload: HookPayload,
): Promise<AttemptResult> {
  const body = JSON.stringify(payload);
  const started = clock.now();
  const timestamp = Math.floor(started / 1000);
  try {
    const response = await outbound.send({
      url: target.url,
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'linkconfig-event': payload.type,
        'linkconfig-event-id': String(payload.id),
        'linkconfig-hook-id': target.id,
        [SIGNATURE_HEADER.toLowerCase()]: signatureHeader(
          target.secret,
          timestamp,
          body,
        ),
      },
      body,
      maxBytes: 1024,
      timeoutMs,
      purpose: 'webhook',
    });
    const durationMs = Math.max(0, Math.round(clock.now() - started));
    const ok = response.status >= 200 && response.status < 300;
    return {
      status: response.status,
      error: ok ? null : `HTTP ${response.status}`,
      durationMs,
    };
  } catch (error) {
    return {
      status: null,
      error:
        error instanceof OutboundError
          ? error.kind === 'refused'
            ? `refused: ${error.message}`
            : error.kind
          : String(error),
      durationMs: Math.max(0, Math.round(clock.now() - started)),
    };
  }
}

/** Delay before the next attempt after `failures` failed ones: 10 s doubling, at most an hour. */
export function backoffMs(failures: number): number {
  return Math.min(10_000 * 2 ** Math.max(0, failures - 1), 3_600_000);
}
