/**
 * The per-resolution context the evaluator hands to atoms and refiners, and how it is made from the
 * options of `resolve`. Kept apart from `types.ts` because it refers to the engine cache, which itself
 * depends on the prepared-config types.
 */
import { engineCache } from '../engine-cache.js';
import type { EngineCache, PosList } from '../engine-cache.js';
import type {
  FilterProtocolHandler,
  PreparedConfig,
  ResolveOptions,
} from '../types.js';

/**
 * The scans of search atoms made ahead of one resolution (the same `now`), by atom key and field
 * selection: what each scan found, before sorting and `limit` (`search-patterns.ts`).
 */
export type SearchScans = ReadonlyMap<string, readonly number[]>;

/** What the evaluator passes to atoms and refiners during one resolution. */
export interface EvalContext {
  readonly prepared: PreparedConfig;
  /** Current time in ms since the epoch (injected, docs/expression-reference.md §19). */
  readonly now: number;
  /** Random source for `*shuffle*`. */
  readonly random: () => number;
  /** Custom filter handlers by name (own entries only). */
  readonly handlers: ReadonlyMap<string, FilterProtocolHandler>;
  /** Whether `:time:` and `:location:` are built in. */
  readonly builtinProtocols: boolean;
  /** Working data of the prepared config (positions, typed arrays, marks). */
  readonly cache: EngineCache;
  /** Results of built-in protocol atoms already evaluated in this resolution, by name and arguments. */
  readonly protocolMemo: Map<string, PosList>;
  /** Scans of search atoms made ahead of this resolution, in slices (`scanningSearchAtoms`). */
  readonly scans?: SearchScans | undefined;
}

/** What a resolution is given: the options of `resolve`, and scans made ahead of it. */
export interface EvalOptions extends ResolveOptions {
  readonly scans?: SearchScans | undefined;
}

/** Custom filter handlers as a map of own, callable entries only. */
export function handlerMap(
  handlers: ResolveOptions['handlers'],
): Map<string, FilterProtocolHandler> {
  const map = new Map<string, FilterProtocolHandler>();
  if (handlers === undefined || handlers === null) return map;
  for (const name of Object.keys(handlers)) {
    const handler = handlers[name];
    if (typeof handler === 'function') map.set(name, handler);
  }
  return map;
}

/** The context of one resolution of `prepared` with `options` (defaults: the clock, `Math.random`). */
export function createEvalContext(
  prepared: PreparedConfig,
  options: EvalOptions,
): EvalContext {
  return {
    prepared,
    now: options.now ?? Date.now(),
    random: options.random ?? Math.random,
    handlers: handlerMap(options.handlers),
    builtinProtocols: options.builtinProtocols ?? true,
    cache: engineCache(prepared),
    protocolMemo: new Map(),
    scans: options.scans,
  };
}
