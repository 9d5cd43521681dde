import type { ConfigVersion } from './versions/config-version.js';

/**
 * What an operation answers: its value (what `/trpc` answers, and what the output schema describes) and
 * the facts about it that only some transports use (REST: reuse, `ETag`, the stored bytes). Later facts
 * (the revision, the author) are added here, never carried beside the value.
 */
export interface Outcome<T> {
  readonly value: T;
  /** Until when (ms since the epoch) the value holds without a write; absent: until the next write. */
  readonly validUntil?: number;
  /** The stored version the value is the entry of (`GET /configs/{name}`: its ETag and bytes). */
  readonly version?: ConfigVersion;
  /** The strong tag of the version a write stored. */
  readonly etag?: string;
  /**
   * The value as JSON text, exactly `JSON.stringify(value)`, for transports that send text, when the
   * operation can write it faster than `JSON.stringify` (from texts kept with stored versions).
   */
  readonly text?: () => string;
}
