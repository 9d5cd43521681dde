import {
  analyzeConfig,
  analyzeExpression,
  decidingPart,
  mergePrepared,
  overParts,
  prepareConfigInSlices,
  resolveIdsWithAnalysisInSlices,
  toResolvedLinks,
  toCherryPick,
  validateLinkConfig,
} from '@linkconfig/shared';
import type {
  CheckExpressionInput,
  CheckExpressionOutput,
  CherryPickInput,
  CherryPickOutput,
  FilterProtocolHandler,
  PreparedConfig,
  QueryInput,
  QueryOutput,
  SliceOptions,
} from '@linkconfig/shared';
import type { MergeCache } from '../cache/cache-policy.js';
import { partWeight } from '../versions/weights.js';
import { configNotFound, DomainError } from '../errors.js';
import { EVENT_LOOP_SLICES } from '../event-loop.js';
import type { Outcome } from '../outcome.js';
import type { ConfigService } from './config-service.js';
import type { Readable, StateRead } from './version-catalog.js';
import type { ConfigVersion } from '../versions/config-version.js';
import { queryAnswerText } from '../versions/result-texts.js';

/** What {@link ExpressionService} needs. */
export interface ExpressionServiceDeps {
  readonly configs: ConfigService;
  /** The clock for `:time:` (ms since the epoch). */
  readonly now: () => number;
  /**
   * Extra filter protocol handlers (docs/expression-reference.md D1); `:time:` and `:location:` are built in.
   */
  readonly handlers?: Readonly<Record<string, FilterProtocolHandler>>;
  /** Prepared merges of stored configs (see `cache/cache-policy.ts`). */
  readonly merges: MergeCache;
  /** How long work shares the event loop (default {@link EVENT_LOOP_SLICES}; tests count the pauses). */
  readonly slices?: SliceOptions;
}

/**
 * An outcome that always says until when it holds unless a config is written (ms since the epoch):
 * `Infinity` when only a write can change it; `now` or less when it may change on any call.
 */
export type Answer<T> = Outcome<T> & { readonly validUntil: number };

/** Default name of `/query` without `configs` (reference servers do the same). */
const DEFAULT_CONFIG = 'demo';

/** What a target is for: resolving an expression, or diagnostics (which read the merge itself). */
type TargetUse = { readonly resolve: string } | 'diagnose';

/** The stored state a request reads, and what its caller may read. */
interface ReadAt {
  readonly state?: StateRead | undefined;
  readonly readable?: Readable | undefined;
}

/** A prepared config to resolve against, and whether it came from request-supplied configs. */
interface Target {
  readonly prepared: PreparedConfig;
  /** The stored versions it was prepared from, in merge order (none when a part came with the request). */
  readonly versions: readonly ConfigVersion[];
}

/**
 * Server-side resolution (`/cherry-pick`, `/query`) on the shared engine. Stored configs are resolved
 * against their per-version prepared form; merges of stored configs are cached per list of versions.
 * Each answer says until when it holds, from the expression's analysis, so the HTTP layer can reuse it.
 * Configs are prepared in slices ({@link EVENT_LOOP_SLICES}): a large one does not hold the event loop.
 */
export class ExpressionService {
  readonly #configs: ConfigService;
  readonly #now: () => number;
  readonly #handlers:
    Readonly<Record<string, FilterProtocolHandler>> | undefined;
  readonly #merges: MergeCache;
  readonly #slices: SliceOptions;

  constructor(deps: ExpressionServiceDeps) {
    this.#configs = deps.configs;
    this.#now = deps.now;
    this.#handlers = deps.handlers;
    this.#merges = deps.merges;
    this.#slices = deps.slices ?? EVENT_LOOP_SLICES;
  }

  /** `POST /cherry-pick`: the links an expression selects, as an `allLinks` object. */
  async cherryPick(
    input: CherryPickInput,
    state?: StateRead,
    readable?: Readable,
  ): Promise<Answer<CherryPickOutput>> {
    const target: Target =
      typeof input.source === 'string'
        ? await this.#stored(input.source, state, readable)
        : {
            prepared: await prepareInline(checkInline(input.source, 'source')),
            versions: [],
          };
    const answer = await this.#resolve(target, input.expression);
    return {
      value: { allLinks: toCherryPick(answer.value) } as CherryPickOutput,
      validUntil: answer.validUntil,
    };
  }

  /** `POST /query`: `configs` (merged in order) wins over `configName`, which defaults to `demo`. */
  async query(
    input: QueryInput,
    state?: StateRead,
    readable?: Readable,
  ): Promise<Answer<QueryOutput>> {
    const target = await this.#queryTarget(
      input,
      { resolve: input.expression },
      { state, readable },
    );
    const { ids, validUntil } = await this.#resolveIds(
      target,
      input.expression,
    );
    const { prepared, versions } = target;
    // The result objects are built only when the value is read (`/trpc`); REST sends the text, written
    // from texts kept with the stored versions.
    let value: QueryOutput | undefined;
    return {
      get value(): QueryOutput {
        value ??= {
          results: toResolvedLinks(prepared, ids) as QueryOutput['results'],
        };
        return value;
      },
      validUntil,
      ...(versions.length === 0
        ? {}
        : { text: () => queryAnswerText(prepared, versions, ids) }),
    };
  }

  /**
   * `POST /expressions/check`: what a careful reader would point out in an expression, against the
   * configs `/query` would resolve it against (changing no result), or in a config alone.
   */
  async check(
    input: CheckExpressionInput,
    state?: StateRead,
    readable?: Readable,
  ): Promise<CheckExpressionOutput> {
    if (input.expression === undefined) {
      return { diagnostics: analyzeConfig(input.config) };
    }
    const target = await this.#queryTarget(
      { ...input, expression: input.expression },
      'diagnose',
      { state, readable },
    );
    const { diagnostics } = analyzeExpression(
      target.prepared,
      input.expression,
      {
        now: this.#now(),
        ...(this.#handlers === undefined ? {} : { handlers: this.#handlers }),
      },
    );
    return { diagnostics: [...diagnostics] };
  }

  /**
   * The config(s) an expression of `/query` resolves against. To `resolve`, a merge whose last part
   * decides every key is that part (`decidingPart`), and an expression of named links and tags reads only
   * those, from the parts (`overParts`); diagnostics read the merge itself.
   */
  async #queryTarget(
    input: QueryInput,
    use: TargetUse,
    { state, readable }: ReadAt,
  ): Promise<Target> {
    return input.configs === undefined
      ? this.#stored(input.configName ?? DEFAULT_CONFIG, state, readable)
      : this.#merged(input.configs, use, { state, readable });
  }

  async #stored(
    name: string,
    state?: StateRead,
    readable?: Readable,
  ): Promise<Target> {
    const view = await this.#configs.current(name, state, readable);
    if (view === null) {
      throw configNotFound(name);
    }
    return { prepared: await view.preparedInSlices(), versions: [view] };
  }

  /**
   * Merges the listed configs (docs/expression-reference.md §14): every item in order, a name as often as it
   * is listed (the last occurrence wins, as the merge rule says), unknown names skipped.
   */
  async #merged(
    items: NonNullable<QueryInput['configs']>,
    use: TargetUse,
    { state, readable }: ReadAt,
  ): Promise<Target> {
    const parts: (ConfigVersion | Record<string, unknown>)[] = [];
    const missing: string[] = [];
    let inline = false;
    for (const [i, item] of items.entries()) {
      if (typeof item === 'string') {
        const view = await this.#configs.current(item, state, readable);
        if (view === null) missing.push(item);
        else parts.push(view);
      } else {
        inline = true;
        parts.push(checkInline(item, `configs.${i}`));
      }
    }
    if (parts.length === 0) {
      throw new DomainError(
        'not_found',
        `none of the configs was found: ${[...new Set(missing)].map((n) => `"${n}"`).join(', ')}`,
      );
    }
    const only = parts[0];
    if (parts.length === 1 && only !== undefined && isVersion(only)) {
      return { prepared: await only.preparedInSlices(), versions: [only] };
    }
    // Request-supplied configs are prepared and merged for this request only: nothing is cached.
    if (inline) {
      const prepared = await prepareAll(parts);
      const over =
        use === 'diagnose'
          ? undefined
          : (decidingPart(prepared) ?? overParts(prepared, use.resolve));
      return { prepared: over ?? mergePrepared(prepared), versions: [] };
    }
    const versions = parts as ConfigVersion[];
    if (use !== 'diagnose') {
      const prepared = await prepareAll(versions);
      // The last part decides every key: resolve over it, with nothing merged or cached.
      const last = versions[versions.length - 1] as ConfigVersion;
      const deciding = decidingPart(prepared);
      if (deciding !== undefined)
        return { prepared: deciding, versions: [last] };
      // Only named links and tags count: resolve over those, looked up in the parts.
      const over = overParts(prepared, use.resolve);
      if (over !== undefined) return { prepared: over, versions };
    }
    const key = versions.map((v) => `${v.version}`).join(',');
    const cached = this.#merges.get(key);
    if (cached !== undefined) return { prepared: cached, versions };
    // Built from the parts' prepared forms (one per stored version, cached with it): map work only.
    const merged = mergePrepared(await prepareAll(versions));
    // Weighed as if it shared nothing with its parts: they may be evicted while it stays.
    const shape = {
      chars: versions.reduce((sum, v) => sum + v.shape.chars, 0),
      width: Math.max(...versions.map((v) => v.shape.width)) as 1 | 2,
      links: merged.ids.length,
    };
    this.#merges.offer(key, merged, partWeight('prepared', shape));
    return { prepared: merged, versions };
  }

  /**
   * Resolves, and says until when the answer holds: the engine's analysis of the expression (after macro
   * expansion, on its tokens) tells whether the answer depends on the clock (`:time:`, search patterns
   * with an age), on chance (`*shuffle*`) or on custom handlers, and until when it cannot change.
   */
  async #resolve(
    target: Target,
    expression: string,
  ): Promise<Answer<QueryOutput['results']>> {
    const { ids, validUntil } = await this.#resolveIds(target, expression);
    return {
      value: toResolvedLinks(target.prepared, ids) as QueryOutput['results'],
      validUntil,
    };
  }

  /**
   * The ids an expression selects, in result order, and until when they hold (see {@link #resolve}); its
   * search patterns scan a large config in slices ({@link EVENT_LOOP_SLICES}).
   */
  async #resolveIds(
    target: Target,
    expression: string,
  ): Promise<{ ids: string[]; validUntil: number }> {
    const { ids, analysis } = await resolveIdsWithAnalysisInSlices(
      target.prepared,
      expression,
      {
        now: this.#now(),
        ...(this.#handlers === undefined ? {} : { handlers: this.#handlers }),
        // Only validUntil is read here: no diagnostic is looked for or formatted.
        diagnostics: false,
        slices: this.#slices,
      },
    );
    return { ids, validUntil: analysis.validUntil };
  }
}

const isVersion = (part: unknown): part is ConfigVersion =>
  typeof part === 'object' && part !== null && 'prepared' in part;

/** A request-supplied config, prepared in slices for this request only. */
const prepareInline = (config: Record<string, unknown>) =>
  prepareConfigInSlices(config, EVENT_LOOP_SLICES);

/** The prepared form of each part, in order, each built in slices. */
async function prepareAll(
  parts: readonly (ConfigVersion | Record<string, unknown>)[],
): Promise<PreparedConfig[]> {
  const prepared: PreparedConfig[] = [];
  for (const part of parts) {
    prepared.push(
      isVersion(part)
        ? await part.preparedInSlices()
        : await prepareInline(part),
    );
  }
  return prepared;
}

function checkInline(
  config: Record<string, unknown>,
  where: string,
): Record<string, unknown> {
  const checked = validateLinkConfig(config);
  if (!checked.ok) {
    // `source.allLinks.a.url must be a string`: the field path is said once.
    const path = checked.path.startsWith('[') ? '' : '.';
    throw new DomainError(
      'invalid_config',
      checked.path === ''
        ? `${where} ${checked.error}`
        : `${where}${path}${checked.error}`,
    );
  }
  return config;
}
