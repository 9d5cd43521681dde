import {
  prepareConfig,
  prepareConfigInSlices,
  runInSlices,
  sanitizeConfigLinks,
  sanitizingConfigLinks,
} from '@linkconfig/shared';
import type {
  LinkConfig,
  PreparedConfig,
  SliceOptions,
} from '@linkconfig/shared';
import { isPlainObject } from '@linkconfig/shared';
import { charWidth } from '../cache/weights.js';
import { EVENT_LOOP_SLICES } from '../event-loop.js';
import { PART_WEIGHTS, partWeight } from './weights.js';
import type { JsonShape } from './weights.js';
import type { StoredConfig } from '../storage/config-repository.js';
import { etagOf } from '../storage/etag.js';
import { buildSearchIndex, searchIndexSteps } from './search-index.js';
import type { ConfigSearchIndex } from './search-index.js';

/** The response entry of `GET /configs/:name`: the config as stored with its links sanitized. */
export interface ConfigEntryView {
  readonly config: LinkConfig;
  readonly meta: { readonly createdAt: string; readonly updatedAt: string };
}

/** A value derived from one stored version by another layer (HTTP bodies, compressed bytes, …). */
interface Derived {
  readonly value: unknown;
  readonly weight: number;
}

/**
 * One stored version of a config and everything derived from it, each part built at most once, on first
 * use: the parsed config, the sanitized response entry, the engine's prepared form and the search index;
 * other layers hang their own derived values here with {@link derive} (the HTTP layer keeps the
 * serialized and compressed bodies), so all of it lives and dies with the version in the cache.
 *
 * {@link weight} is the memory the version keeps alive, from factors measured per part
 * (`weights.ts`); it grows as parts are built, and the owning cache is told through
 * {@link onWeightChange}. Nothing here is mutated after it is built.
 */
export class ConfigVersion {
  readonly name: string;
  readonly version: number;
  readonly createdAt: string;
  readonly updatedAt: string;
  /**
   * Made by a write of this server (which checked it as a stored config), not read from storage: the
   * text a later PUT of the name may be read against (`services/put-plan.ts`).
   */
  readonly madeByWrite: boolean;
  /** Set by the cache that holds this version: called when {@link weight} changes. */
  onWeightChange: (() => void) | undefined;
  readonly #length: number;
  readonly #width: 1 | 2;
  /** Number of links, known once the stored config is parsed. */
  #links = 0;
  #json: string | undefined;
  /** Whether {@link stored} keeps the text once it has parsed it. */
  readonly #keepText: boolean;
  #stored: Record<string, unknown> | undefined;
  /** Strong identity of this version for HTTP caching and conditional writes (`etagOf`). */
  readonly etag: string;
  #entry: ConfigEntryView | undefined;
  #prepared: PreparedConfig | undefined;
  /** The preparation in slices under way, shared by the requests that wait for it. */
  #preparing: Promise<PreparedConfig> | undefined;
  #index: ConfigSearchIndex | undefined;
  /** The index build in slices under way, shared by the searches that wait for it. */
  #indexing: Promise<ConfigSearchIndex> | undefined;
  #derived: Map<symbol, Derived> | undefined;
  #weight: number;

  /**
   * `parsed`, when given, is `row.json` already parsed (by the write that stored it, which checked that it
   * reads back as sent): it is kept instead of parsing the text again on first use. It must not be
   * mutated afterwards. A version made by a write (`madeByWrite`) keeps its text even once parsed (weighed
   * with it), so the next write of the name makes its history delta from it ({@link heldText}) instead
   * of reading the stored text back; a version read from storage drops its text once parsed.
   */
  constructor(
    row: StoredConfig,
    parsed?: Record<string, unknown>,
    madeByWrite = false,
  ) {
    this.name = row.name;
    this.version = row.version;
    this.createdAt = row.createdAt;
    this.updatedAt = row.updatedAt;
    this.etag = etagOf(row);
    this.#length = row.json.length;
    this.#width = charWidth(row.json);
    this.#keepText = madeByWrite;
    this.madeByWrite = madeByWrite;
    if (parsed === undefined || madeByWrite) this.#json = row.json;
    if (parsed !== undefined) this.#keepStored(parsed);
    this.#weight = this.#computeWeight();
  }

  /**
   * The JSON text exactly as stored with its version, while this version still holds it (else
   * `undefined`): what a write over this version passes as `WriteOptions.heldText`.
   */
  get heldText(): { version: number; json: string } | undefined {
    const json = this.#json;
    return json === undefined ? undefined : { version: this.version, json };
  }

  /** The size of the stored JSON, as the weight factors need it. */
  get shape(): JsonShape {
    return { chars: this.#length, width: this.#width, links: this.#links };
  }

  /** The memory this version keeps alive, in bytes (see `weights.ts`). */
  get weight(): number {
    return this.#weight;
  }

  /** The config exactly as stored, parsed on first use. Never mutated. */
  get stored(): Record<string, unknown> {
    if (this.#stored === undefined) {
      const stored = this.#keepStored(JSON.parse(this.#json ?? '{}'));
      if (!this.#keepText) this.#json = undefined;
      this.#grew();
      return stored;
    }
    return this.#stored;
  }

  #keepStored(parsed: unknown): Record<string, unknown> {
    const stored = isPlainObject(parsed) ? parsed : { allLinks: {} };
    const allLinks = stored['allLinks'];
    this.#links = isPlainObject(allLinks) ? Object.keys(allLinks).length : 0;
    this.#stored = stored;
    return stored;
  }

  /**
   * The response entry: the config as stored, its links sanitized (`url`, `image`, `thumbnail`, `meta`
   * `…url` values), and the timestamps. The same frozen object on every call.
   */
  get entry(): ConfigEntryView {
    return this.#entry ?? this.#keepEntry(sanitizeConfigLinks(this.stored));
  }

  /** Keeps the entry of the sanitized config (the first one made, when two were). */
  #keepEntry(config: Record<string, unknown>): ConfigEntryView {
    if (this.#entry === undefined) {
      this.#entry = Object.freeze({
        config: config as LinkConfig,
        meta: Object.freeze({
          createdAt: this.createdAt,
          updatedAt: this.updatedAt,
        }),
      });
      this.#grew();
    }
    return this.#entry;
  }

  /** The engine's prepared form (docs/expression-reference.md §13), built once per version. */
  get prepared(): PreparedConfig {
    if (this.#prepared === undefined) {
      this.#prepared = prepareConfig(this.stored);
      this.#grew();
    }
    return this.#prepared;
  }

  /**
   * {@link prepared}, built in slices ({@link EVENT_LOOP_SLICES} unless told otherwise) when it is not
   * built yet, so other requests are answered while a large config is prepared; one build, shared by
   * every caller meanwhile.
   */
  preparedInSlices(
    slices: SliceOptions = EVENT_LOOP_SLICES,
  ): Promise<PreparedConfig> {
    if (this.#prepared !== undefined) return Promise.resolve(this.#prepared);
    this.#preparing ??= prepareConfigInSlices(this.stored, slices).then(
      (built) => {
        this.#preparing = undefined;
        if (this.#prepared === undefined) {
          this.#prepared = built;
          this.#grew();
        }
        return this.#prepared;
      },
    );
    return this.#preparing;
  }

  /** The search index over the sanitized links, built once per version. */
  get searchIndex(): ConfigSearchIndex {
    if (this.#index === undefined) {
      this.#index = buildSearchIndex(this.entry.config['allLinks']);
      this.#grew();
    }
    return this.#index;
  }

  /** {@link searchIndex} when it is built, else `undefined` (a search then builds it in slices). */
  get builtSearchIndex(): ConfigSearchIndex | undefined {
    return this.#index;
  }

  /**
   * {@link searchIndex}, built in slices ({@link EVENT_LOOP_SLICES} unless told otherwise) when it is not
   * built yet, the sanitized entry first when that is not made either: a large config's first search
   * lets other requests in. One build, shared by every caller meanwhile.
   */
  searchIndexInSlices(
    slices: SliceOptions = EVENT_LOOP_SLICES,
  ): Promise<ConfigSearchIndex> {
    if (this.#index !== undefined) return Promise.resolve(this.#index);
    this.#indexing ??= this.#buildIndex(slices).then(
      (built) => {
        this.#indexing = undefined;
        if (this.#index === undefined) {
          this.#index = built;
          this.#grew();
        }
        return this.#index;
      },
      (error: unknown) => {
        this.#indexing = undefined;
        throw error;
      },
    );
    return this.#indexing;
  }

  async #buildIndex(slices: SliceOptions): Promise<ConfigSearchIndex> {
    const entry =
      this.#entry ??
      this.#keepEntry(
        await runInSlices(sanitizingConfigLinks(this.stored), slices),
      );
    return runInSlices(searchIndexSteps(entry.config['allLinks']), slices);
  }

  /**
   * A value another layer derives from this version, built once under `key` and kept (and weighed) with
   * the version: it is dropped when the version is.
   */
  derive<T>(key: symbol, build: () => { value: T; weight: number }): T {
    const hit = this.#derived?.get(key);
    if (hit !== undefined) return hit.value as T;
    const built = build();
    this.#derived ??= new Map();
    this.#derived.set(key, built);
    this.#grew();
    return built.value;
  }

  /**
   * {@link weight} once the search index is built too (the stored text is parsed and the entry built
   * first, if they are not yet; the index is built from the entry, whose weight counts when sanitizing
   * changed a link): what a search that builds the index would offer the cache.
   */
  weightIndexed(): number {
    void this.entry;
    return this.#index === undefined
      ? this.#weight + partWeight('searchIndex', this.shape)
      : this.#weight;
  }

  #computeWeight(): number {
    const shape = this.shape;
    let weight = PART_WEIGHTS.fixed;
    if (this.#json !== undefined) weight += this.#length * this.#width;
    if (this.#stored !== undefined) weight += partWeight('stored', shape);
    if (this.#entry !== undefined && this.#entry.config !== this.#stored) {
      weight += partWeight('entry', shape);
    }
    if (this.#prepared !== undefined) weight += partWeight('prepared', shape);
    if (this.#index !== undefined) weight += partWeight('searchIndex', shape);
    for (const derived of this.#derived?.values() ?? []) {
      weight += derived.weight;
    }
    return weight;
  }

  #grew(): void {
    this.#weight = this.#computeWeight();
    this.onWeightChange?.();
  }
}
