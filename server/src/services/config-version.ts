import { prepareConfig, sanitizeUrl } from '@linkconfig/shared';
import type { LinkConfig, PreparedConfig } from '@linkconfig/shared';
import type { StoredConfig } from '../storage/config-repository.js';
import { etagOf } from '../storage/etag.js';
import { buildSearchIndex } from './search-index.js';
import type { ConfigSearchIndex } from './search-index.js';
import { isPlainObject } from '@linkconfig/shared';

/** Link fields that hold URLs and pass through the sanitizer on the way out (service contract §1). */
const URL_FIELDS = ['url', 'image', 'thumbnail'] as const;

/**
 * One stored version of a config and everything derived from it, each computed at most once: the parsed
 * config, the response entry with sanitized URLs and its serialized bytes, the engine's prepared form and
 * the search index. Instances are immutable views; nothing here is ever mutated after construction.
 */
export class ConfigVersion {
  readonly name: string;
  readonly version: number;
  readonly createdAt: string;
  readonly updatedAt: string;
  #json: string | undefined;
  #stored: Record<string, unknown> | undefined;
  /** Strong identity of this version for HTTP caching and conditional writes (`etagOf`). */
  readonly etag: string;
  /** Approximate memory weight, for the cache budget. */
  readonly weight: number;
  #sanitized: LinkConfig | undefined;
  #body: string | undefined;
  #prepared: PreparedConfig | undefined;
  #index: ConfigSearchIndex | undefined;

  constructor(row: StoredConfig) {
    this.name = row.name;
    this.version = row.version;
    this.createdAt = row.createdAt;
    this.updatedAt = row.updatedAt;
    this.#json = row.json;
    this.etag = etagOf(row);
    // The parsed form, the sanitized copy, the serialized body and the indexes: about 4× the JSON.
    this.weight = row.json.length * 4 + 1024;
  }

  /** The config exactly as stored, parsed on first use. Never mutated. */
  get stored(): Record<string, unknown> {
    if (this.#stored === undefined) {
      const parsed: unknown = JSON.parse(this.#json ?? '{}');
      this.#stored = isPlainObject(parsed) ? parsed : { allLinks: {} };
      this.#json = undefined;
    }
    return this.#stored;
  }

  /** The config as `GET /configs/:name` returns it: as stored, with link URLs sanitized. */
  get sanitized(): LinkConfig {
    this.#sanitized ??= sanitizeConfig(this.stored);
    return this.#sanitized;
  }

  /** The response entry. `config` is the same object on every call (callers use it as a cache key). */
  entry(): {
    config: LinkConfig;
    meta: { createdAt: string; updatedAt: string };
  } {
    return {
      config: this.sanitized,
      meta: { createdAt: this.createdAt, updatedAt: this.updatedAt },
    };
  }

  /** The serialized response body of `GET /configs/:name`. */
  get body(): string {
    this.#body ??= JSON.stringify(this.entry());
    return this.#body;
  }

  /** The engine's prepared form (expression doc §13), built once per version. */
  get prepared(): PreparedConfig {
    this.#prepared ??= prepareConfig(this.stored);
    return this.#prepared;
  }

  /** The search index over the sanitized links, built once per version. */
  get searchIndex(): ConfigSearchIndex {
    this.#index ??= buildSearchIndex(this.sanitized['allLinks']);
    return this.#index;
  }
}

/**
 * A copy of the config whose links have `url`, `image` and `thumbnail` sanitized. Key order is kept;
 * links and sections that need no change are shared, not copied.
 */
export function sanitizeConfig(config: Record<string, unknown>): LinkConfig {
  const allLinks = config['allLinks'];
  if (!isPlainObject(allLinks)) return config as LinkConfig;
  let changed: Record<string, unknown> | undefined;
  for (const id of Object.keys(allLinks)) {
    const link = allLinks[id];
    if (!isPlainObject(link)) continue;
    let copy: Record<string, unknown> | undefined;
    for (const field of URL_FIELDS) {
      const value = link[field];
      if (typeof value !== 'string') continue;
      const clean = sanitizeUrl(value);
      if (clean !== value) {
        copy ??= { ...link };
        copy[field] = clean;
      }
    }
    if (copy !== undefined) {
      changed ??= { ...allLinks };
      // defineProperty, not assignment: an id such as `__proto__` must stay a plain own key.
      Object.defineProperty(changed, id, {
        value: copy,
        writable: true,
        enumerable: true,
        configurable: true,
      });
    }
  }
  if (changed === undefined) return config as LinkConfig;
  return { ...config, allLinks: changed } as LinkConfig;
}
