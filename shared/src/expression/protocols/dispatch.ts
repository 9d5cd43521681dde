/**
 * Protocol atoms `:name:args:` (docs/expression-reference.md §10.1, D1): only filter handlers produce links,
 * called once per link in catalog order; config `protocols` data alone, unknown and generate-only protocols
 * give `∅`. Built-in filters scan the cache's typed arrays and are memoized per resolution.
 */
import type { EngineCache, PosList } from '../engine-cache.js';
import type { EvalContext } from '../eval-context.js';
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

/** Evaluates a built-in protocol, or `undefined` when `name` is not built in. */
function runBuiltin(
  context: EvalContext,
  call: ProtocolCall,
): PosList | undefined {
  if (call.name !== 'time' && call.name !== 'location') return undefined;
  const key = JSON.stringify([call.name, ...call.args]);
  let result = context.protocolMemo.get(key);
  if (result === undefined) {
    result =
      call.name === 'time'
        ? runTime(context.cache, call.args, context.now)
        : runLocation(context.cache, call.args);
    context.protocolMemo.set(key, result);
  }
  return result;
}

/** Evaluates one protocol atom over the prepared catalog. */
export function protocolAtom(
  context: EvalContext,
  call: ProtocolCall,
): PosList {
  const custom = context.handlers.get(call.name);
  if (custom !== undefined) return runHandler(context.cache, custom, call.args);
  if (!context.builtinProtocols) return [];
  return runBuiltin(context, call) ?? [];
}
