import type { FeedEvent } from '@linkconfig/shared';
import type { Change } from '../storage/config-repository.js';

/**
 * One entry of the log as the feed hands it to subscribers: a write of a config (`change`) or an event
 * about one config (`event`: a publish, a link's change of state); its SSE bytes are made at most once.
 */
export interface FeedItem {
  /** The log id. */
  readonly id: number;
  /** The config it is about: a reader who may not read it is never handed it. */
  readonly name: string;
  /** The write, for a write of a config. */
  readonly change: Change | undefined;
  /** The event, for an entry that is not a write. */
  readonly event: FeedEvent | undefined;
  /** The SSE frame, encoded on first use and shared by every stream. */
  frame(): Uint8Array;
}

/**
 * One open stream of the feed. The feed moves `cursor` (the last id handed over) and calls the rest;
 * `deliver` and `reset` answer `false` when the consumer's buffer is full: the feed then sends a stream
 * that was keeping up back to catching up, and disconnects one that was not (`end('overflow')`), so it
 * resumes by id instead of holding memory.
 */
export interface Subscriber {
  cursor: number;
  deliver(item: FeedItem): boolean;
  reset(head: number): boolean;
  heartbeat(): void;
  /**
   * Resolves once the consumer has room again: at once while its queue is at most half full, else when
   * it has read down to that (catch-up waits on it before each change).
   */
  room(): Promise<void>;
  /** Bytes queued that the consumer has not read yet. */
  backlog(): number;
  /** Ends the stream: the server stops, or the consumer cannot keep up. */
  end(reason: EndReason): void;
}

/** Why the feed ends a stream. */
export const END_REASONS = {
  /** The server is shutting down. */
  shutdown: 'shutdown',
  /** The consumer did not read fast enough; it reconnects and resumes by id. */
  overflow: 'overflow',
} as const;
export type EndReason = (typeof END_REASONS)[keyof typeof END_REASONS];
