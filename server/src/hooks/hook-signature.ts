/**
 * How a delivery is signed (docs/publishing.md, "Verifying a delivery"): HMAC-SHA256, keyed with the
 * hook's secret, over the timestamp (seconds since the epoch), a full stop and the body's bytes, sent in
 * `Linkconfig-Signature: t=<timestamp>,v1=<hex digest>`. The timestamp is signed so that a receiver can
 * refuse an old delivery replayed later.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** The header that carries the signature. */
export const SIGNATURE_HEADER = 'Linkconfig-Signature';

/** A new signing secret: 32 random bytes, base64url, after `whsec_`. */
export function newHookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64url')}`;
}

/** The digest of `body` sent at `timestamp` (seconds), lowercase hex. */
function digest(secret: string, timestamp: number, body: string): string {
  return createHmac('sha256', secret)
    .update(`${timestamp}.`)
    .update(body)
    .digest('hex');
}

/** The value of {@link SIGNATURE_HEADER} for `body` sent at `timestamp` (seconds). */
export function signatureHeader(
  secret: string,
  timestamp: number,
  body: string,
): string {
  return `t=${timestamp},v1=${digest(secret, timestamp, body)}`;
}

/**
 * Whether `header` is a valid signature of `body` with `secret`, made at most `toleranceS` seconds (default
 * 300) from `nowS`: what a receiver does (in its own language) before it trusts a delivery.
 */
export function verifySignature(
  secret: string,
  { header, body }: { readonly header: string; readonly body: string },
  {
    nowS,
    toleranceS = 300,
  }: { readonly nowS: number; readonly toleranceS?: number },
): boolean {
  const parts = new Map(
    header.split(',').map((part) => {
      const at = part.indexOf('=');
      return [part.slice(0, at).trim(), part.slice(at + 1).trim()] as const;
    }),
  );
  const timestamp = Number(parts.get('t'));
  const given = parts.get('v1') ?? '';
  if (!Number.isInteger(timestamp) || Math.abs(nowS - timestamp) > toleranceS)
    return false;
  const expected = Buffer.from(digest(secret, timestamp, body), 'hex');
  const actual = Buffer.from(given, 'hex');
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}
