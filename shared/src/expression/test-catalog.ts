/**
 * Test fixtures: a small example catalog (links `a`…`e`, macros `m`, `pair`, `top`) on which the table
 * tests check the rules of docs/expression-reference.md, and helpers that resolve to id lists. Test-only
 * (excluded from the build).
 */
import { prepareConfig } from './prepare/prepare.js';
import { resolve } from './evaluate/resolve.js';
import type { PreparedConfig, ResolveOptions } from './types.js';

/** The fixed clock of the tests: 2024-06-15T12:00:00.000Z. */
export const NOW = Date.UTC(2024, 5, 15, 12);

/** One hour and one day in ms. */
export const HOUR = 3_600_000;
export const DAY = 24 * HOUR;

/** The doc's example catalog, as stored. */
export function exampleConfig(): Record<string, unknown> {
  return {
    allLinks: {
      a: { url: 'https://a.example', label: 'Delta', tags: ['x'] },
      b: { url: 'https://b.example', label: 'alpha', tags: ['x', 'y'] },
      c: { url: 'https://c.example', label: 'Charlie', tags: ['y'] },
      d: { url: 'https://same.example', label: 'Bravo', tags: ['x', 'z'] },
      e: { url: 'https://same.example', tags: ['z'] },
    },
    macros: {
      m: { linkItems: '.x | .y' },
      pair: { linkItems: 'a, b' },
      top: { linkItems: '*sort* *limit:2*' },
    },
  };
}

/** The example catalog, prepared. */
export const example: PreparedConfig = prepareConfig(exampleConfig());

/** Resolves and returns the ids, comma-joined (`''` for `∅`). */
export function ids(
  prepared: PreparedConfig,
  expression: unknown,
  options: ResolveOptions = {},
): string {
  return resolve(prepared, expression, { now: NOW, ...options })
    .map((link) => link.id)
    .join(',');
}

/** A config whose links are given by id → partial link (url defaults to `https://<id>.example`). */
export function configOf(
  links: Record<string, Record<string, unknown>>,
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  const allLinks: Record<string, unknown> = {};
  for (const [id, link] of Object.entries(links)) {
    allLinks[id] = { url: `https://${id}.example`, ...link };
  }
  return { allLinks, ...extra };
}
