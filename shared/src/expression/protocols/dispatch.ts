/**
 * Protocol atoms `:name:args:` (docs/expression-reference.md §10.1, D1): only filter handlers produce links,
 * called once per link in catalog order; config `protocols` data alone, unknown and generate-only protocols
 * give `∅`. Built-in filters scan the cache's typed arrays and are memoized per resolution.
 */
import type { EngineCache, PosList } from '../engine-cache.js';
import type { EvalContext } from '../evaluate/eval-context.js';
import type { FilterProtocolHandler } from '../types.js';
import { locationFilter } from './location.js';
import { timeFilter } from './time.js';

/** Token fields a protocol atom needs. */
interface ProtocolCall {
  readonly name: string;
  readonly args: readonly string[];
}

/** Runs a custom handler on every link in catalog order; a throw excludes that link only. */
function runHandler(
  cache: EngineCache,
  handler: FilterProtocolHandler,
  args: readonly string[],
): PosList {
  const ids = cache.prepared.ids;
  const out: number[] = [];
  for (let pos = 0; pos < cache.size; pos++) {
    const link = cache.links[pos];
    const id = ids[pos];
    if (link === undefined || id === undefined) continue;
    try {
      if (handler(args, link, id)) out.push(pos);
    } catch {
      // A handler that throws for one link excludes that link only.
    }
  }
  return out;
}

function runTime(
  cache: EngineCache,
  args: readonly string[],
  now: number,
): PosList {
  const test = timeFilter(args, now);
  if (test === null) return [];
  const stamps = cache.timeStamps;
  const out: number[] = [];
  for (let pos = 0; pos < cache.size; pos++) {
    const ts = stamps[pos] ?? 0;
    if (ts !== 0 && test(ts)) out.push(pos);
  }
  return out;
}

function runLocation(cache: EngineCache, args: readonly string[]): PosList {
  const test = locationFilter(args);
  if (test === null) return [];
  const points = cache.locations;
  const out: number[] = [];
  for (let pos = 0; pos < cache.size; pos++) {
    const lat = points[pos * 2] ?? NaN;
    if (Number.isNaN(lat)) continue;
    if (test([lat, points[pos * 2 + 1] ?? NaN])) out.push(pos);
  }
  return out;
}

/** The built-in filter protocols by name (docs/expression-reference.md §10): the one table of them. */
const BUILTINS = {
  time: (context: EvalContext, args: readonly string[]): PosList =>
    runTime(context.cache, args, context.now),
  location: (context: EvalContext, args: readonly string[]): PosList =>
    runLocation(context.cache, args),
} as const;

/** The name of a built-in filter protocol. */
export type BuiltinProtocol = keyof typeof BUILTINS;

/** How a protocol atom is answered, in the engine's order: a custom handler first, then a built-in filter. */
export type ProtocolRoute =
  | { readonly kind: 'handler'; readonly handler: FilterProtocolHandler }
  | { readonly kind: 'builtin'; readonly name: BuiltinProtocol }
  /** A built-in name while built-in protocols are turned off. */
  | { readonly kind: 'builtin-off' }
  | { readonly kind: 'none' };

/** How the protocol `name` is answered with these handlers and built-ins on or off. */
export function routeProtocol(
  name: string,
  handlers: ReadonlyMap<string, FilterProtocolHandler>,
  builtinProtocols: boolean,
): ProtocolRoute {
  const handler = handlers.get(name);
  if (handler !== undefined) return { kind: 'handler', handler };
  if (!Object.hasOwn(BUILTINS, name)) return { kind: 'none' };
  return builtinProtocols
    ? { kind: 'builtin', name: name as BuiltinProtocol }
    : { kind: 'builtin-off' };
}

/** Evaluates a built-in protocol, memoized per resolution. */
function runBuiltin(
  context: EvalContext,
  name: BuiltinProtocol,
  args: readonly string[],
): PosList {
  const key = JSON.stringify([name, ...args]);
  let result = context.protocolMemo.get(key);
  if (result === undefined) {
    result = BUILTINS[name](context, args);
    context.protocolMemo.set(key, result);
  }
  return result;
}

/** Evaluates one protocol atom over the prepared catalog. */
export function protocolAtom(
  context: EvalContext,
  call: ProtocolCall,
): PosList {
  const route = routeProtocol(
    call.name,
    context.handlers,
    context.builtinProtocols,
  );
  switch (route.kind) {
    case 'handler':
      return runHandler(context.cache, route.handler, call.args);
    case 'builtin':
      return runBuiltin(context, route.name, call.args);
    case 'builtin-off':
    case 'none':
      return [];
  }
}
