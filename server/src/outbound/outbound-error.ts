/**
 * Why an outbound request got no answer, as one error with a machine-readable kind: the guard refused it
 * (`refused`, with the reason), or the network failed it (`dns`, `connect`, `tls`, `timeout`), or its
 * redirects went on too long (`redirects`), or its URL cannot be requested (`url`).
 */
export type OutboundFailure =
  'refused' | 'dns' | 'connect' | 'tls' | 'timeout' | 'redirects' | 'url';

/** An outbound request that got no answer, and why. */
export class OutboundError extends Error {
  override readonly name = 'OutboundError';
  constructor(
    readonly kind: OutboundFailure,
    message: string,
    /** For `refused`: the reason counted on `/metrics` (an address range, `localhost`, `scheme`, …). */
    readonly reason?: string,
  ) {
    super(message);
  }
}

/** A refusal of the guard: `reason` is what `/metrics` counts it under. */
export function refused(reason: string, message: string): OutboundError {
  return new OutboundError('refused', message, reason);
}

/** Error codes of Node's resolver, sockets and TLS, by what they mean for a caller. */
const DNS_CODES = new Set(['ENOTFOUND', 'EAI_AGAIN', 'EAI_FAIL', 'ENODATA']);
const TIMEOUT_CODES = new Set([
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'ETIMEDOUT',
]);

/** Maps whatever undici or Node threw into an {@link OutboundError} (one already is, unchanged). */
export function toOutboundError(error: unknown): OutboundError {
  if (error instanceof OutboundError) return error;
  const code = (error as { code?: unknown } | null)?.code;
  const text = typeof code === 'string' ? code : '';
  const message = error instanceof Error ? error.message : String(error);
  if (DNS_CODES.has(text)) {
    return new OutboundError('dns', `the name does not resolve (${text})`);
  }
  if (TIMEOUT_CODES.has(text)) {
    return new OutboundError('timeout', `no answer in time (${text})`);
  }
  if (
    text.startsWith('ERR_TLS') ||
    text.startsWith('ERR_SSL') ||
    /CERT|SELF_SIGNED|UNABLE_TO_(GET|VERIFY)|DEPTH_ZERO/.test(text)
  ) {
    return new OutboundError('tls', `TLS failed (${text})`);
  }
  return new OutboundError(
    'connect',
    text === '' ? message : `the connection failed (${text})`,
  );
}
