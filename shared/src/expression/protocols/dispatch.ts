/**
 * Protocol atoms `:name:args:` (expression doc §10.1, D1): only filter handlers produce links, called
 * once per link in catalog order; config `protocols` data alone, unknown and generate-only protocols
 * give `∅`.
 */
import type { EvalContext } from '../types.js';
import { locationFilter } from './location.js';
import { timeFilter } from './time.js';
import type { LinkFilter } from './time.js';

/** Compiles a built-in filter, or `undefined` when `name` is not built in. */
function builtinFilter(
  name: string,
  args: readonly string[],
  now: number,
): LinkFilter | undefined {
  if (name === 'time') return timeFilter(args, now);
  if (name === 'location') return locationFilter(args);
  return undefined;
}

/** Evaluates one protocol atom over the prepared catalog. */
export function protocolAtom(
  context: EvalContext,
  token: { readonly name: string; readonly args: readonly string[] },
): string[] {
  const { prepared } = context;
  const custom = context.handlers.get(token.name);
  if (custom !== undefined) {
    const args = token.args;
    const matches: string[] = [];
    for (const id of prepared.ids) {
      const link = prepared.links.get(id);
      if (link === undefined) continue;
      try {
        if (custom(args, link, id)) matches.push(id);
      } catch {
        // A handler that throws for one link excludes that link only.
      }
    }
    return matches;
  }
  const filter = context.builtinProtocols
    ? builtinFilter(token.name, token.args, context.now)
    : undefined;
  if (filter === undefined || filter === null) return [];
  const matches: string[] = [];
  for (const id of prepared.ids) {
    const link = prepared.links.get(id);
    if (link !== undefined && filter(link)) matches.push(id);
  }
  return matches;
}
