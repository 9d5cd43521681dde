/**
 * What a `ChangeFeed` is built from and answers besides streams: its source and options, the
 * report of a stream cut off, and why a stream may not open.
 */
import type { ConfigRepository } from '../storage/config-repository.js';

/** What the feed reads: the repository's log of changes and its commit hints. */
export type ChangeSource = Pick<ConfigRepository, 'head' | 'readLog' | 'watch'>;

/** Options of `ChangeFeed`. */
export interface ChangeFeedOptions {
  readonly source: ChangeSource;
  /** Most streams open at once, SSE and tRPC together (default 1000). */
  readonly maxStreams?: number;
  /** Interval of heartbeat comments on idle SSE streams, in ms (default 15,000). */
  readonly heartbeatMs?: number;
  /** Bytes a consumer may lag behind before it is disconnected (default 256 KiB). */
  readonly bufferBytes?: number;
  /** Changes read per query (default 500). */
  readonly pageSize?: number;
  /** Where failures of background reads go (they are retried). */
  readonly onError?: (error: unknown) => void;
  /** Told of every stream cut off because its consumer fell too far behind (for the log). */
  readonly onCut?: (cut: StreamCut) => void;
}

/** A stream cut off for falling behind: which one, and how far behind it was. */
export interface StreamCut {
  /** The stream's number, counted from 1 per feed. */
  readonly stream: number;
  /** The last id handed to the stream. */
  readonly cursor: number;
  /** The last id dispatched. */
  readonly head: number;
  /** Changes between the two. */
  readonly behindChanges: number;
  /** Bytes queued that the consumer had not read. */
  readonly bufferedBytes: number;
}

/** Why a stream could not be opened. */
export const REFUSALS = {
  full: 'full',
  closed: 'closed',
  /** The log's head could not be read (storage failing); the client should retry. */
  unavailable: 'unavailable',
} as const;
export type Refusal = (typeof REFUSALS)[keyof typeof REFUSALS];

/** What a client refused a stream is told, over SSE and tRPC alike. */
export const REFUSAL_MESSAGES: Record<Refusal, string> = {
  full: 'too many open event streams; try again later',
  closed: 'the server is shutting down',
  unavailable: 'the change log cannot be read right now; try again later',
};
