import type {
  ConfigRepository,
  NameVersion,
} from '../storage/config-repository.js';

/**
 * How a read learns the stored state's change token: a request reads it once (`Context.stateToken`) and
 * hands this on, so one request never asks the repository twice. Absent: the read asks the repository.
 */
export type StateRead = () => Promise<string | null>;

/** Names and versions as of one change token. */
export interface Snapshot {
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
  #snapshot: Snapshot | undefined;
  #singles: Singles | undefined;

  constructor(
    repository: Pick<
      ConfigRepository,
      'changeToken' | 'listVersions' | 'version'
    >,
  ) {
    this.#repo = repository;
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
