import { runAtOnce, runInSlices } from '@linkconfig/shared';
import type { SliceOptions } from '@linkconfig/shared';
import {
  DecidedTexts,
  changing,
  keepSpans,
  patching,
} from './patched-config.js';
import { summaryOver } from './revision-summary.js';
import { editTemplate, keepEditSpans, planPut } from './put-plan.js';
import type { Applied, Change } from './patched-config.js';
import { configNotFound, DomainError } from '../errors.js';
import type { EditTemplate, ReceivedJson } from '../received-json.js';
import type {
  ConfigRepository,
  NameVersion,
  PutResult,
  StoredConfig,
} from '../storage/config-repository.js';
import { matchesStrongly } from '../storage/etag.js';
import { textOf } from '../storage/stored-text.js';
import { preconditionFailed, writeConditions } from './write-conditions.js';
import type { ConditionHeaders, WriteOrigin } from './write-conditions.js';
import type { ReadableCache, VersionCache } from '../cache/cache-policy.js';
import { ConfigVersion } from '../versions/config-version.js';
import { VersionCatalog } from './version-catalog.js';
import { EVENT_LOOP_SLICES, KEEP_PARSED_MIN_CHARS } from '../event-loop.js';
import type { Readable, StateRead } from './version-catalog.js';

/** What {@link ConfigService} needs. */
export interface ConfigServiceDeps {
  readonly repository: ConfigRepository;
  readonly cache: VersionCache<ConfigVersion>;
  /** The stored names each read view may read, per change token (absent: worked out per request). */
  readonly readable?: ReadableCache<NameVersion>;
  /** The server's clock (tests pass a fixed one). */
  readonly now: () => Date;
  /** How a patch of a large config shares the event loop (default {@link EVENT_LOOP_SLICES}). */
  readonly slices?: SliceOptions;
}

/**
 * The rules of stored configs: validation on write, preconditions, and reads served from per-version views
 * (`ConfigVersion`) so stored JSON is parsed once per version, never per request. Every read first asks
 * the repository's change token (SQLite: no query; PostgreSQL: one single-row query), so several server
 * processes on one database never serve a version another one has replaced.
 */
export class ConfigService {
  readonly #repo: ConfigRepository;
  readonly #cache: VersionCache<ConfigVersion>;
  readonly #now: () => Date;
  readonly #catalog: VersionCatalog;
  readonly #slices: SliceOptions;
  readonly #decided = new DecidedTexts();

  constructor(deps: ConfigServiceDeps) {
    this.#slices = deps.slices ?? EVENT_LOOP_SLICES;
    this.#repo = deps.repository;
    this.#cache = deps.cache;
    this.#now = deps.now;
    this.#catalog = new VersionCatalog(deps.repository, deps.readable);
  }

  /** Every name the caller may read, sorted by code point. */
  async list(state?: StateRead, readable?: Readable): Promise<string[]> {
    return [...(await this.#catalog.readable(state, readable)).names];
  }

  /** Every name the caller may read with its version, sorted by code point. */
  async versions(
    state?: StateRead,
    readable?: Readable,
  ): Promise<readonly NameVersion[]> {
    return (await this.#catalog.readable(state, readable)).entries;
  }

  /**
   * A token identifying the stored state (the repository's change token), or `null` when the repository
   * cannot tell (callers must then not reuse anything derived from earlier reads).
   */
  stateToken(): Promise<string | null> {
    return this.#catalog.token();
  }

  /** The current version of a config, or `null` when it does not exist. */
  async current(
    name: string,
    state?: StateRead,
    readable?: Readable,
  ): Promise<ConfigVersion | null> {
    if (readable !== undefined && !readable.canRead(name)) return null;
    // This name's version only: a read of one config never reads the whole catalog.
    return this.at(name, await this.#catalog.version(name, state));
  }

  /**
   * The view of `name` at a version just read from {@link versions}, or `null` when it does not exist (any
   * more): at once when cached (a promise costs a read two turns of the microtask queue), else from storage.
   */
  at(
    name: string,
    version: number | null,
  ): ConfigVersion | null | Promise<ConfigVersion | null> {
    const cached = this.cachedAt(name, version);
    if (cached !== undefined) return cached;
    return this.readVersion(name).then((view) => {
      if (view !== null) this.#cache.set(view);
      return view;
    });
  }

  /**
   * The cached view of `name` at exactly `version`, without reading storage: `null` when `version` says
   * the name does not exist, `undefined` when that version is not cached (then {@link readVersion}).
   */
  cachedAt(
    name: string,
    version: number | null,
  ): ConfigVersion | null | undefined {
    if (version === null) {
      this.#cache.delete(name);
      return null;
    }
    return this.#cache.get(name, version);
  }

  /**
   * The stored version of `name` read from storage, not kept: for a request that reads many configs in
   * turn (a search), which offers it to the cache ({@link offer}) once it has built what it needed.
   */
  async readVersion(name: string): Promise<ConfigVersion | null> {
    const row = await this.#repo.get(name);
    return row === null ? null : new ConfigVersion(row);
  }

  /**
   * Keeps a version read by {@link readVersion} only if the cache has room for it (with the parts built so
   * far) without evicting another, or its name was asked for more often than those it evicts
   * (`VersionCache.offer`): a search over more configs than the cache holds leaves the cached versions in
   * place, and the versions it cannot keep die young instead of growing the old heap.
   */
  offer(view: ConfigVersion): void {
    this.#cache.offer(view);
  }

  /**
   * Whether {@link offer} would keep `view` (read by {@link readVersion}) once its search index is built
   * (parsing it, if it is not yet): a search that would have to drop it tests it without an index.
   */
  keepsIndexed(view: ConfigVersion): boolean {
    return this.#cache.admits(view.name, view.weightIndexed());
  }

  /**
   * The stored text a config body PUT to `name` may be read against (the body reader's `template`): the
   * version held of the name, when this server wrote it; `undefined` otherwise.
   */
  editTemplate(name: string | undefined): EditTemplate | undefined {
    return name === undefined
      ? undefined
      : editTemplate(this.#cache.peek(name));
  }

  /**
   * Validates and stores a config under `name`, when the preconditions hold (else a
   * {@link PreconditionFailedError} carrying the current ETag). The config is stored as received: the
   * text of a {@link ReceivedJson} (key order, unknown keys and spacing included), else its serialization;
   * `createdAt` survives overwrites, `updatedAt` is set here.
   */
  async put(
    name: string,
    config: ReceivedJson | unknown,
    conditions: ConditionHeaders & WriteOrigin = {},
  ): Promise<{ etag: string; rev: number }> {
    const write = writeConditions(conditions);
    const {
      ifMatch: _ifMatch,
      ifNoneMatch: _ifNoneMatch,
      ...origin
    } = conditions;
    const held = this.#cache.peek(name);
    const plan = await planPut(config, held, this.#slices);
    const result = await this.#repo.put(name, plan.json, {
      ...write,
      ...origin,
      // The text of the version it replaces, when held: the history's delta is made from it.
      heldText: held?.heldText,
      summary: plan.summary,
      cut: plan.cut,
      now: this.#now,
    });
    if (!result.ok) throw preconditionFailed(name, conditions, result);
    // A large config's version keeps the value parsed from the body (#written).
    const written = this.#written(
      { name, json: textOf(plan.json) },
      result,
      plan.parsed,
    );
    if (plan.spans !== undefined) keepEditSpans(written, plan.spans);
    this.#cache.set(written);
    return { etag: result.etag, rev: result.rev };
  }

  /**
   * The version a write stored (to cache), keeping its text for the next write's history delta, and its
   * parsed value only from {@link KEEP_PARSED_MIN_CHARS}: parsing that again would hold the event loop,
   * while keeping every written value alive costs the GC more than a small config's parse on first read.
   */
  #written(
    { name, json }: { readonly name: string; readonly json: string },
    result: PutResult,
    parsed: Record<string, unknown> | undefined,
  ): ConfigVersion {
    return new ConfigVersion(
      {
        name,
        json,
        createdAt: result.createdAt,
        updatedAt: result.updatedAt,
        version: result.version,
      },
      json.length >= KEEP_PARSED_MIN_CHARS ? parsed : undefined,
      true,
    );
  }

  /**
   * Applies a JSON Merge Patch (RFC 7396) to the stored config of `name` and stores the result, through
   * the same write as {@link put} (recorded as a `patch`). A missing name is `not_found`; a result that
   * is not a valid config is `invalid_config`, and nothing is stored. The patch applies to the version
   * the write commits over (decided inside its transaction, `ConfigRepository.update`), so a PATCH
   * without `ifMatch` never fails on a write in between; with `ifMatch` only to that version (else a
   * {@link PreconditionFailedError}).
   */
  patch(
    name: string,
    patch: unknown,
    conditions: Pick<ConditionHeaders, 'ifMatch'> &
      Omit<WriteOrigin, 'op'> = {},
  ): Promise<{ etag: string; rev: number }> {
    return this.update(name, patching(patch), { ...conditions, op: 'patch' });
  }

  /**
   * Stores `change` of the stored config of `name` (a missing name is `not_found`): the change is a
   * function of the stored value, applied to exactly the version the write commits over
   * (`ConfigRepository.update`), checked as a stored config (`invalid_config`: nothing stored). It is
   * worked out in slices on the version read first; only when another write committed in between is it
   * worked out again, at once, on the version the write finds under its lock. With `ifMatch`, only over
   * that version (else a {@link PreconditionFailedError}); without it, never a 412. A change's `text`
   * form, when it has one, is tried first (on a version's text: it answers the same, or `undefined`).
   */
  async update(
    name: string,
    change: Change,
    conditions: Pick<ConditionHeaders, 'ifMatch'> & WriteOrigin = {},
  ): Promise<{ etag: string; rev: number }> {
    const { ifMatch } = writeConditions(conditions);
    const { ifMatch: _ifMatch, ...origin } = conditions;
    const view = await this.current(name);
    if (view === null) throw configNotFound(name);
    if (ifMatch !== undefined && !matchesStrongly(ifMatch, view.etag)) {
      throw preconditionFailed(name, conditions, {
        ok: false,
        currentEtag: view.etag,
      });
    }
    // Worked out in slices on the version read: a large config's change lets other requests in.
    const early =
      change.text?.(view) ??
      (await runInSlices(changing(view.stored, change), this.#slices));
    let [applied, forget]: [Applied, () => void] = [early, () => undefined];
    // The revision's summary: from the whole next value, or from what a change on the text counted.
    const summary = !early.ok
      ? undefined
      : early.next !== undefined
        ? await summaryOver(view, early.next, this.#slices)
        : early.counts === undefined
          ? undefined
          : { over: view.version, summary: early.counts };
    const result = await this.#repo
      .update(
        name,
        (current) => {
          if (current === null) throw configNotFound(name);
          applied =
            current.version === view.version
              ? early
              : this.#changeOf(current, change);
          if (!applied.ok) {
            throw new DomainError(
              'invalid_config',
              `the ${conditions.op === 'restore' ? 'restored' : 'patched'} config is not valid: ${applied.error}`,
            );
          }
          forget = this.#decided.record(name, applied);
          return { json: applied.json };
        },
        {
          ifMatch,
          ...origin,
          heldText: view.heldText,
          // Kept only when the write commits over the version it was worked out on.
          summary,
          now: this.#now,
        },
      )
      .finally(() => forget());
    if (!result.ok) throw preconditionFailed(name, conditions, result);
    if (applied.ok) {
      const written = this.#written(
        { name, json: applied.json },
        result,
        applied.next,
      );
      if (applied.spans !== undefined) keepSpans(written, applied.spans);
      this.#cache.set(written);
    }
    return { etag: result.etag, rev: result.rev };
  }

  /** A change of the version a write found under its lock (from the cache when it holds it), at once. */
  #changeOf(current: StoredConfig, change: Change): Applied {
    const version =
      this.#cache.get(current.name, current.version) ??
      this.#decided.versionOf(current);
    return (
      change.text?.(version) ?? runAtOnce(changing(version.stored, change))
    );
  }

  /**
   * Deletes a config; a missing name is not an error unless `ifMatch` is given (then a
   * {@link PreconditionFailedError}, as for a stored version other than the one named).
   */
  async remove(
    name: string,
    conditions: Pick<ConditionHeaders, 'ifMatch'> &
      Omit<WriteOrigin, 'op'> = {},
  ): Promise<void> {
    const { ifMatch: _ifMatch, ...origin } = conditions;
    const result = await this.#repo.remove(name, {
      ...writeConditions(conditions),
      ...origin,
      now: this.#now,
    });
    if (!result.ok) throw preconditionFailed(name, conditions, result);
    this.#cache.delete(name);
  }
}
