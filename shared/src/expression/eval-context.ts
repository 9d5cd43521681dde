/**
 * The per-resolution context the evaluator hands to atoms and refiners. Kept apart from `types.ts`
 * because it refers to the engine cache, which itself depends on the prepared-config types.
 */
import type { EngineCache, PosList } from './engine-cache.js';
import type { FilterProtocolHandler, PreparedConfig } from './types.js';

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
}
