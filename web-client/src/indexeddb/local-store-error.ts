/** Why a local (IndexedDB) operation failed. */
export type LocalStoreErrorCode =
  | 'unavailable'
  | 'open-failed'
  | 'open-timeout'
  | 'blocked'
  | 'quota-exceeded'
  | 'connection-lost'
  | 'aborted'
  | 'unknown';

/**
 * A local storage failure. A store rejects with it instead of ever reporting a write that did not
 * happen; the next call opens a fresh connection.
 */
export class LocalStoreError extends Error {
  override readonly name = 'LocalStoreError';
  readonly code: LocalStoreErrorCode;

  constructor(
    code: LocalStoreErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.code = code;
  }
}

/** Maps an IndexedDB failure (DOMException or anything else) to a {@link LocalStoreError}. */
export function toLocalStoreError(
  error: unknown,
  action: string,
): LocalStoreError {
  if (error instanceof LocalStoreError) return error;
  const name =
    error instanceof Error || isDomException(error) ? error.name : '';
  const detail = error instanceof Error ? error.message : String(error);
  const code: LocalStoreErrorCode =
    name === 'QuotaExceededError'
      ? 'quota-exceeded'
      : name === 'InvalidStateError' || name === 'UnknownError'
        ? 'connection-lost'
        : name === 'AbortError'
          ? 'aborted'
          : 'unknown';
  const reason =
    code === 'quota-exceeded'
      ? 'the browser storage quota is exhausted'
      : code === 'connection-lost'
        ? 'the connection to the browser database was lost'
        : detail;
  return new LocalStoreError(code, `Could not ${action}: ${reason}`, {
    cause: error,
  });
}

function isDomException(value: unknown): value is { name: string } {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { name?: unknown }).name === 'string'
  );
}
