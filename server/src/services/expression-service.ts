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
import { WeightedLru } from './lru-map.js';

/** What {@link ExpressionService} needs. */
export interface ExpressionServiceDeps {
  readonly configs: ConfigService;
  /** The clock for `:time:` (ms since the epoch). */
  readonly now: () => number;
  /** Extra filter protocol handlers (expression doc D1); `:time:` and `:location:` are built in. */
  readonly handlers?: Readonly<Record<string, FilterProtocolHandler>>;
  /** Budget, in approximate bytes, of the merged-config cache and of the result cache (each). */
  readonly cacheBytes?: number;
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
  readonly #merged: WeightedLru<string, PreparedConfig>;
  readonly #results: WeightedLru<string, Results>;
  readonly #ids = new WeakMap<PreparedConfig, number>();
  #nextId = 0;

  constructor(deps: ExpressionServiceDeps) {
    this.#configs = deps.configs;
    this.#now = deps.now;
    this.#handlers = deps.handlers;
    this.#merged = new WeightedLru(deps.cacheBytes ?? 64 * 1024 * 1024);
    this.#results = new WeightedLru(deps.cacheBytes ?? 64 * 1024 * 1024);
  }

  /** Whether custom filter protocols are registered (their results may depend on anything). */
  get hasCustomHandlers(): boolean {
    return this.#handlers !== undefined;
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
      // The merged, prepared config weighs about as much as its parts.
      const weight = parts.reduce(
        (sum, p) => sum + (p instanceof ConfigVersion ? p.weight : 0),
        0,
      );
      this.#merged.set(key, prepared, weight);
    }
    return prepared;
  }

  /** Resolves, reusing the result of an earlier identical call when the expression is deterministic. */
  #resolve(prepared: PreparedConfig, expression: string): Results {
    const cacheable =
      this.#handlers === undefined && isDeterministic(prepared, expression);
    let id = this.#ids.get(prepared);
    if (id === undefined && cacheable) {
      id = ++this.#nextId;
      this.#ids.set(prepared, id);
    }
    const key = `${id}\u0000${expression}`;
    const hit = cacheable ? this.#results.get(key) : undefined;
    if (hit !== undefined) return hit;
    const results = resolve(prepared, expression, {
      now: this.#now(),
      ...(this.#handlers === undefined ? {} : { handlers: this.#handlers }),
    }) as Results;
    // Results share the prepared links; what they cost is mostly the array and the key.
    if (cacheable)
      this.#results.set(
        key,
        results,
        64 + results.length * 16 + key.length * 2,
      );
    return results;
  }
}

/**
 * An expression's result depends only on the prepared config unless it can reach `*shuffle*` (random),
 * `:time:` (the clock) or a search pattern with an `age` option (the clock), directly or through a macro.
 */
function isDeterministic(
  prepared: PreparedConfig,
  expression: string,
): boolean {
  const agedPatterns = [...prepared.searchPatterns.values()].some(
    (p) => p.options['age'] !== undefined,
  );
  const risky = (text: string): boolean =>
    text.includes('shuffle') ||
    text.includes('time') ||
    (agedPatterns && text.includes('/'));
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
