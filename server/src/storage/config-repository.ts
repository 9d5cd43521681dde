/**
 * The storage boundary of the server: one interface, one file per adapter, one contract suite
 * (`config-repository.contract.ts`) that every adapter runs.
 */

/** One stored config: the JSON text exactly as received, plus the server's timestamps. */
export interface StoredConfig {
  readonly name: string;
  /** The config's JSON text as it was received (key order and unknown keys kept). */
  readonly json: string;
  /** ISO 8601 UTC with milliseconds. */
  readonly createdAt: string;
  /** ISO 8601 UTC with milliseconds. Changes on every write. */
  readonly updatedAt: string;
  /** Increases on every write of this name; identifies a stored version for caches. */
  readonly version: number;
}

/** A name and the version stored under it. */
export interface NameVersion {
  readonly name: string;
  readonly version: number;
}

/** What a write reports back. */
export interface PutResult {
  readonly createdAt: string;
  readonly updatedAt: string;
  readonly version: number;
  /** `true` when the name did not exist before. */
  readonly created: boolean;
}

/**
 * Durable storage of named configs. Every method is atomic: a write is either fully stored or not at all.
 * A resolved `put` or `remove` is durable (survives a crash of the process).
 */
export interface ConfigRepository {
  /** Every name, sorted by code point. */
  list(): Promise<string[]>;
  /** The stored config, or `null` when the name does not exist. */
  get(name: string): Promise<StoredConfig | null>;
  /** Every name with its current version, sorted by code point; no JSON is read. */
  listVersions(): Promise<NameVersion[]>;
  /** The current version of a name without reading its JSON, or `null`. */
  version(name: string): Promise<number | null>;
  /** Creates or overwrites; `createdAt` is kept on overwrite, `updatedAt` set to `now`. */
  put(name: string, json: string, now: Date): Promise<PutResult>;
  /** Deletes; `true` when something was deleted. A missing name is not an error. */
  remove(name: string): Promise<boolean>;
  /**
   * A value that changes whenever a write may have happened, by this process or another one, or `null`
   * when the adapter cannot tell cheaply. While it is unchanged, callers may reuse what they read before.
   */
  changeToken(): string | null;
  /** Number of stored configs. */
  count(): Promise<number>;
  /** Releases the connection; later calls reject. */
  close(): Promise<void>;
}

/** Code-point order of names, the order `GET /configs` promises (shared with the client package). */
export { compareNames } from '@linkconfig/shared';
