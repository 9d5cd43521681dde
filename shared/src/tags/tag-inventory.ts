/**
 * Every tag of a config with what uses it: its links, and the expressions (macros, settings) that name it
 * as `.tag`; and the likely variants a maintainer may want to merge (case-only differences, singular and
 * plural, tags used once).
 */
import { isPlainObject } from '../util/is-plain-object.js';
import { expressionPlaces } from './expression-places.js';
import { tagsNamedIn } from './rewrite-expression.js';

/** Why a tag is flagged as a likely variant. */
export type TagVariantKind = 'case' | 'plural' | 'once';

/** One tag of a config. */
export interface TagUse {
  readonly tag: string;
  /** Ids of the links that carry it, in catalog order. */
  readonly links: readonly string[];
  /** Where expressions name it (`macros.m`, `settings.menu`). */
  readonly usedBy: readonly string[];
  /** Other tags it is likely a variant of, with why; `once` has no other tag. */
  readonly variants: readonly {
    readonly kind: TagVariantKind;
    readonly of?: string;
  }[];
}

/** The singular a plural tag most likely has (`bridges` → `bridge`, `cities` → `city`), or `undefined`. */
function singularCandidates(tag: string): string[] {
  const lower = tag.toLowerCase();
  const out: string[] = [];
  if (lower.endsWith('ies') && lower.length > 3)
    out.push(`${lower.slice(0, -3)}y`);
  if (lower.endsWith('es') && lower.length > 2) out.push(lower.slice(0, -2));
  if (lower.endsWith('s') && lower.length > 1) out.push(lower.slice(0, -1));
  return out;
}

/** The tags of `config`, most used first (ties by name), each with its users and variants. */
export function tagInventory(config: Record<string, unknown>): TagUse[] {
  const links = new Map<string, string[]>();
  const allLinks = isPlainObject(config['allLinks']) ? config['allLinks'] : {};
  for (const [id, link] of Object.entries(allLinks)) {
    const tags =
      isPlainObject(link) && Array.isArray(link['tags']) ? link['tags'] : [];
    for (const tag of new Set(tags)) {
      if (typeof tag !== 'string') continue;
      const list = links.get(tag);
      if (list === undefined) links.set(tag, [id]);
      else list.push(id);
    }
  }
  const usedBy = new Map<string, string[]>();
  for (const place of expressionPlaces(config)) {
    for (const tag of tagsNamedIn(place.text)) {
      const list = usedBy.get(tag);
      if (list === undefined) usedBy.set(tag, [place.where]);
      else list.push(place.where);
    }
  }
  const byLower = new Map<string, string[]>();
  for (const tag of links.keys()) {
    const lower = tag.toLowerCase();
    byLower.set(lower, [...(byLower.get(lower) ?? []), tag]);
  }
  const out: TagUse[] = [];
  for (const [tag, ids] of links) {
    const variants: { kind: TagVariantKind; of?: string }[] = [];
    for (const other of byLower.get(tag.toLowerCase()) ?? []) {
      if (other !== tag) variants.push({ kind: 'case', of: other });
    }
    for (const singular of singularCandidates(tag)) {
      for (const other of byLower.get(singular) ?? []) {
        variants.push({ kind: 'plural', of: other });
      }
    }
    for (const plural of [
      `${tag}s`,
      `${tag}es`,
      `${tag.replace(/y$/i, '')}ies`,
    ]) {
      for (const other of byLower.get(plural.toLowerCase()) ?? []) {
        if (other !== tag) variants.push({ kind: 'plural', of: other });
      }
    }
    if (ids.length === 1) variants.push({ kind: 'once' });
    out.push({ tag, links: ids, usedBy: usedBy.get(tag) ?? [], variants });
  }
  return out.sort((a, b) =>
    b.links.length !== a.links.length
      ? b.links.length - a.links.length
      : a.tag < b.tag
        ? -1
        : a.tag > b.tag
          ? 1
          : 0,
  );
}
