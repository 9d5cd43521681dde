import {
  mergeConfigs,
  prepareConfig,
  resolve,
  toCherryPick,
  validateLinkConfig,
} from '@linkconfig/shared';
import type {
  CherryPickInput,
  CherryPickOutput,
  FilterProtocolHandler,
  PreparedConfig,
  QueryInput,
  QueryOutput,
} from '@linkconfig/shared';
import { DomainError } from '../errors.js';
import type { ConfigService } from './config-service.js';
import { ConfigVersion } from './config-version.js';
import { LruMap } from './lru-map.js';

/** What {@link ExpressionService} needs. */
export interface ExpressionServiceDeps {
  readonly configs: ConfigService;
  /** The clock for `:time:` (ms since the epoch). */
  readonly now: () => number;
  /** Extra filter protocol handlers (expression doc D1); `:time:` and `:location:` are built in. */
  readonly handlers?: Readonly<Record<string, FilterProtocolHandler>>;
  /** How many merged configs and how many query results to keep. */
  readonly cacheEntries?: number;
}

type Results = QueryOutput['results'];

/** Default name of `/query` without `configs` (reference servers do the same). */
const DEFAULT_CONFIG = 'demo';

/**
 * Server-side resolution (`/cherry-pick`, `/query`) on the shared engine. Stored configs are resolved
 * against their per-version prepared form; merges of stored configs are cached per set of versions; and
 * results of deterministic expressions are cached per prepared config and expression.
 */
export class ExpressionService {
  readonly #configs: ConfigService;
  readonly #now: () => number;
  readonly #handlers:
    Readonly<Record<string, FilterProtocolHandler>> | undefined;
  readonly #merged: LruMap<string, PreparedConfig>;
  readonly #results = new WeakMap<PreparedConfig, LruMap<string, Results>>();
  readonly #resultEntries: number;

  constructor(deps: ExpressionServiceDeps) {
    this.#configs = deps.configs;
    this.#now = deps.now;
    this.#handlers = deps.handlers;
    this.#merged = new LruMap(deps.cacheEntries ?? 64);
    this.#resultEntries = deps.cacheEntries ?? 64;
  }

  /** `POST /cherry-pick`: the links an expression selects, as an `allLinks` object. */
  async cherryPick(input: CherryPickInput): Promise<CherryPickOutput> {
    const prepared =
      typeof input.source === 'string'
        ? (await this.#stored(input.source)).prepared
        : prepareConfig(checkInline(input.source, 'source'));
    return {
      allLinks: toCherryPick(this.#resolve(prepared, input.expression)),
    } as CherryPickOutput;
  }

  /** `POST /query`: `configs` (merged in order) wins over `configName`, which defaults to `demo`. */
  async query(input: QueryInput): Promise<QueryOutput> {
    if (input.configs === undefined) {
      const view = await this.#stored(input.configName ?? DEFAULT_CONFIG);
      return { results: this.#resolve(view.prepared, input.expression) };
    }
    const prepared = await this.#mergedPrepared(input.configs);
    return { results: this.#resolve(prepared, input.expression) };
  }

  async #stored(name: string): Promise<ConfigVersion> {
    const view = await this.#configs.current(name);
    if (view === null) {
      throw new DomainError('not_found', `config "${name}" not found`);
    }
    return view;
  }

  /** Merges the listed configs (expression doc §14): stored names de-duplicated, unknown ones skipped. */
  async #mergedPrepared(
    items: NonNullable<QueryInput['configs']>,
  ): Promise<PreparedConfig> {
    const seen = new Set<string>();
    const parts: (ConfigVersion | Record<string, unknown>)[] = [];
    let inline = false;
    for (const [i, item] of items.entries()) {
      if (typeof item === 'string') {
        if (seen.has(item)) continue;
        seen.add(item);
        const view = await this.#configs.current(item);
        if (view !== null) parts.push(view);
      } else {
        inline = true;
        parts.push(checkInline(item, `configs[${i}]`));
      }
    }
    if (parts.length === 0) {
      throw new DomainError(
        'not_found',
        `none of the configs was found: ${[...seen].map((n) => `"${n}"`).join(', ')}`,
      );
    }
    const only = parts[0];
    if (parts.length === 1 && only instanceof ConfigVersion) {
      return only.prepared;
    }
    const raw = parts.map((p) => (p instanceof ConfigVersion ? p.stored : p));
    if (inline) return prepareConfig(mergeConfigs(raw));
    const key = parts
      .map((p) => (p instanceof ConfigVersion ? `${p.version}` : ''))
      .join(',');
    let prepared = this.#merged.get(key);
    if (prepared === undefined) {
      prepared = prepareConfig(mergeConfigs(raw));
      this.#merged.set(key, prepared);
    }
    return prepared;
  }

  /** Resolves, reusing the result of an earlier identical call when the expression is deterministic. */
  #resolve(prepared: PreparedConfig, expression: string): Results {
    const cacheable =
      this.#handlers === undefined && isDeterministic(prepared, expression);
    let perConfig = cacheable ? this.#results.get(prepared) : undefined;
    const hit = perConfig?.get(expression);
    if (hit !== undefined) return hit;
    const results = resolve(prepared, expression, {
      now: this.#now(),
      ...(this.#handlers === undefined ? {} : { handlers: this.#handlers }),
    }) as Results;
    if (cacheable) {
      if (perConfig === undefined) {
        perConfig = new LruMap(this.#resultEntries);
        this.#results.set(prepared, perConfig);
      }
      perConfig.set(expression, results);
    }
    return results;
  }
}

/**
 * An expression's result depends only on the prepared config unless it can reach `*shuffle*` (random) or
 * `:time:` (the clock), directly or through a macro.
 */
function isDeterministic(
  prepared: PreparedConfig,
  expression: string,
): boolean {
  const risky = (text: string): boolean =>
    text.includes('shuffle') || text.includes('time');
  if (risky(expression)) return false;
  if (!expression.includes('@')) return true;
  for (const text of prepared.macros.values()) if (risky(text)) return false;
  return true;
}

function checkInline(
  config: Record<string, unknown>,
  where: string,
): Record<string, unknown> {
  const checked = validateLinkConfig(config);
  if (!checked.ok) {
    throw new DomainError('invalid_config', `${where}: ${checked.error}`);
  }
  return config;
}
