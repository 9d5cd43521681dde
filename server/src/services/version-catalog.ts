import type { RequestAuth } from '../auth.js';
import type { ReadableCache, ReadableNames } from '../cache/cache-policy.js';
import type {
  ConfigRepository,
  NameVersion,
} from '../storage/config-repository.js';

/**
 * Which names a read may see (the caller's access: `canRead`, and `readView`, equal for callers who may
 * read the same names); absent: every name. A name it may not see is answered exactly as a missing one.
 */
export type Readable = Pick<RequestAuth, 'canRead' | 'readView'>;

/**
 * How a read learns the stored state's change token: a request reads it once (`Context.stateToken`) and
 * hands this on, so one request never asks the repository twice. Absent: the read asks the repository.
 */
export type StateRead = () => Promise<string | null>;

/** Names and versions as of one change token. */
interface Snapshot {
  readonly token: string;
  readonly entries: readonly NameVersion[];
  readonly names: readonly string[];
  readonly versions: ReadonlyMap<string, number>;
}

/** Versions of single names, read one by one as of one change token. */
interface Singles {
  readonly token: string;
  readonly versions: Map<string, number>;
}

/**
 * Which version of each name is current, as of the repository's change token (re-read only when the
 * token moved: another process wrote, or we did). Reads that need every name (the list, a search) read
 * all names and versions at once and keep them for that token; a read of one name (`GET /configs/:name`,
 * `/query` on a config) asks the repository for that name only, so the first query after a start, or
 * after a write, does not read the whole store's catalog. Versions read one by one are kept for the same
 * token too (names that exist only: what is kept is bounded by the names stored).
 */
export class VersionCatalog {
  readonly #repo: Pick<
    ConfigRepository,
    'changeToken' | 'listVersions' | 'version'
  >;
  readonly #readable: ReadableCache<NameVersion> | undefined;
  #snapshot: Snapshot | undefined;
  #singles: Singles | undefined;

  /** `readable`: the names each read view may read, kept per change token (absent: worked out per call). */
  constructor(
    repository: Pick<
      ConfigRepository,
      'changeToken' | 'listVersions' | 'version'
    >,
    readable?: ReadableCache<NameVersion>,
  ) {
    this.#repo = repository;
    this.#readable = readable;
  }

  /** The repository's change token (`null`: it cannot tell, and nothing may be reused). */
  token(state?: StateRead): Promise<string | null> {
    return (state ?? this.#changeToken)();
  }

  readonly #changeToken = () => this.#repo.changeToken();

  /** The current version of `name`, or `null` when it does not exist. */
  async version(name: string, state?: StateRead): Promise<number | null> {
    const token = await this.token(state);
    if (token === null) return this.#repo.version(name);
    if (this.#snapshot?.token === token) {
      return this.#snapshot.versions.get(name) ?? null;
    }
    if (this.#singles?.token !== token) {
      this.#singles = { token, versions: new Map() };
    }
    const singles = this.#singles;
    const known = singles.versions.get(name);
    if (known !== undefined) return known;
    const version = await this.#repo.version(name);
    if (version !== null) singles.versions.set(name, version);
    return version;
  }

  /**
   * The names (sorted by code point) and versions the caller may read as of the current token: every one
   * for a caller who reads every name, else worked out once per read view and change token (the
   * `readable` cache), not once per request. When the repository cannot tell its state, they are read
   * from it and worked out for this call.
   */
  async readable(
    state?: StateRead,
    readable?: Readable,
  ): Promise<ReadableNames<NameVersion>> {
    const snapshot = await this.snapshot(state);
    const view = readable?.readView() ?? '*';
    if (snapshot !== null && (readable === undefined || view === '*')) {
      return snapshot;
    }
    const kept =
      snapshot === null ? undefined : this.#readable?.get(view, snapshot.token);
    if (kept !== undefined) return kept;
    const all = snapshot?.entries ?? (await this.#repo.listVersions());
    const entries =
      readable === undefined
        ? all
        : all.filter((e) => readable.canRead(e.name));
    const found = { entries, names: entries.map((e) => e.name) };
    if (snapshot !== null) this.#readable?.set(view, snapshot.token, found);
    return found;
  }

  /**
   * Every name (sorted by code point) and version as of the current token, read once per token; `null`
   * when the repository cannot tell its state (ask it).
   */
  async snapshot(state?: StateRead): Promise<Snapshot | null> {
    const token = await this.token(state);
    if (token === null) return null;
    if (this.#snapshot?.token === token) return this.#snapshot;
    const entries = await this.#repo.listVersions();
    this.#snapshot = {
      token,
      entries,
      names: entries.map((e) => e.name),
      versions: new Map(entries.map((e) => [e.name, e.version])),
    };
    // The full catalog answers every name of this token from now on.
    this.#singles = undefined;
    return this.#snapshot;
  }
}
