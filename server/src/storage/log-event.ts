/**
 * The entries of the one log that are not writes of configs (`ConfigRepository.appendEvent`), in a file
 * of their own so the stores that append them (publishing) need not import the repository's interface.
 */
import type { Author } from '@linkconfig/shared';

/**
 * An entry of the log that is not a write of a config (a publish, an unpublish, a broken link…): it takes
 * the next change id like a write, so every reader of the log sees it in commit order among the writes.
 */
export interface LogEvent {
  readonly id: number;
  /** What happened (`publish`, `link-broken`…); never a write's op (`put`, `patch`, `restore`, `delete`). */
  readonly type: string;
  /** The config it is about. */
  readonly name: string;
  /** When it was appended (ISO 8601 UTC with milliseconds). */
  readonly at: string;
  readonly by: Author | null;
  readonly requestId: string | null;
  /** Its facts, as JSON (small: a URL, a status). */
  readonly detail: unknown;
}

/** What `ConfigRepository.appendEvent` appends. */
export interface NewLogEvent {
  readonly type: string;
  readonly name: string;
  readonly by?: Author | null | undefined;
  readonly requestId?: string | undefined;
  readonly detail?: unknown;
  /** The clock, read under the write lock (default: the system clock). */
  readonly now?: (() => Date) | undefined;
}
