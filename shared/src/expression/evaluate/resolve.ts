/**
 * `resolve` (docs/expression-reference.md §1, §16): input guard, macro expansion, tokenizing, one-pass
 * evaluation, de-duplication, ids to links. Never throws.
 */
import type { ResolvedLink } from '../../schemas/index.js';
import { Evaluator } from './evaluate.js';
import { MAX_TOKENS, tokenize } from '../syntax/lexer.js';
import type { GrammarObserver } from '../syntax/grammar-observer.js';
import type { Token } from '../syntax/token-kind.js';
import { expandMacros } from '../macros/macros.js';
import { createEvalContext } from './eval-context.js';
import type { EvalOptions } from './eval-context.js';
import type { PreparedConfig, PreparedLink, ResolveOptions } from '../types.js';
import { trimWhitespace } from '../syntax/whitespace.js';
import { setOwn } from '../../util/own-property.js';

/** The ids an expression selects, in result order, without duplicates. */
export function resolveIds(
  prepared: PreparedConfig,
  expression: unknown,
  options: ResolveOptions = {},
): string[] {
  if (typeof expression !== 'string') return [];
  const trimmed = trimWhitespace(expression);
  if (trimmed === '') return [];
  const expanded = expandMacros(trimmed, prepared.macros);
  if (expanded === null || expanded === '') return [];
  const tokens = tokenize(expanded, MAX_TOKENS);
  if (tokens === null || tokens.length === 0) return [];
  return evaluateTokens(prepared, tokens, options);
}

/**
 * The ids selected by the tokens of an expanded expression (docs/expression-reference.md §1 steps 5 and 6),
 * telling `options.observer` what the parse reaches.
 */
export function evaluateTokens(
  prepared: PreparedConfig,
  tokens: readonly Token[],
  options: EvalOptions & { readonly observer?: GrammarObserver },
): string[] {
  const context = createEvalContext(prepared, options);
  const positions = new Evaluator(
    tokens,
    context,
    options.observer,
  ).parseQuery();
  return positions.map((pos) => prepared.ids[pos] ?? '');
}

/**
 * Ids to result links: `id` first, then the prepared fields (docs/expression-reference.md §1 step 7, §16).
 */
export function toResolvedLinks(
  prepared: PreparedConfig,
  ids: readonly string[],
): ResolvedLink[] {
  const out: ResolvedLink[] = [];
  for (const id of ids) {
    const link = prepared.links.get(id);
    if (link !== undefined) out.push({ id, ...link });
  }
  return out;
}

/**
 * Resolves `expression` against a prepared config: the selected links in result order, each with `id` first
 * and then its prepared fields in their fixed order (docs/expression-reference.md §16). Returns `[]` for
 * every input it cannot use; never throws. Nested values (tags, meta, …) are shared with the prepared
 * config: treat them as read-only.
 */
export function resolve(
  prepared: PreparedConfig,
  expression: unknown,
  options?: ResolveOptions,
): ResolvedLink[] {
  try {
    return toResolvedLinks(prepared, resolveIds(prepared, expression, options));
  } catch {
    return [];
  }
}

/**
 * The `POST /cherry-pick` shape (docs/expression-reference.md §16): an object from id to link without `id`.
 * Integer-like ids come first in ascending order, as in any JavaScript object.
 */
export function toCherryPick(
  results: readonly ResolvedLink[],
): Record<string, PreparedLink> {
  const out: Record<string, PreparedLink> = {};
  for (const result of results) {
    const { id, ...link } = result;
    setOwn(out, id, link);
  }
  return out;
}
