/**
 * Two links that are one (duplicates) merged into one: the kept link takes, per field, the value of the
 * side picked for it (the kept side's by default, the removed side's where the kept one has none), the
 * tags of both united; the removed link goes; and every expression that names the removed id (macros,
 * strings in `settings`) is rewritten to the kept id through the expression grammar (the rename rule of
 * `tags/rewrite-expression.ts`), never by text replacement. The page's Duplicates panel calls this.
 */
import type { ExpressionChange } from '../schemas/tags.js';
import { isPlainObject } from '../util/is-plain-object.js';
import {
  expressionPlaces,
  mapSettingsStrings,
} from '../tags/expression-places.js';
import {
  idsNamedIn,
  renameIdInExpression,
} from '../tags/rewrite-expression.js';
import { setOwn } from '../util/own-property.js';
import type { JsonObject } from '../util/own-property.js';

/** Which link a field of the merged link comes from. */
export type LinkMergeSide = 'keep' | 'remove';

/** A planned merge of two links. */
export interface LinkMergePlan {
  /** The config after the merge (the input is never changed). */
  readonly next: JsonObject;
  /** The merged link, stored under the kept id at the kept link's place. */
  readonly merged: JsonObject;
  /** The expressions that named the removed id, before and after. */
  readonly references: readonly ExpressionChange[];
  /** The fields where the two links differ (tags aside), so the person can pick a side. */
  readonly differing: readonly string[];
}

/** The string tags of a stored link. */
function tagsOf(link: JsonObject): string[] {
  return Array.isArray(link['tags'])
    ? link['tags'].filter((tag): tag is string => typeof tag === 'string')
    : [];
}

/** The fields of two links where they differ (tags aside), in the kept link's order, then the other's. */
export function differingFields(
  keep: JsonObject,
  remove: JsonObject,
): string[] {
  const fields = [
    ...new Set([...Object.keys(keep), ...Object.keys(remove)]),
  ].filter((field) => field !== 'tags');
  return fields.filter(
    (field) => JSON.stringify(keep[field]) !== JSON.stringify(remove[field]),
  );
}

/**
 * Plans merging link `remove` into link `keep` of `config`; `picks` names the side of each field that
 * should not come from the default (the kept link, or the removed one where the kept link lacks the field).
 * Throws when either id is missing or both are one.
 */
export function planLinkMerge(
  config: JsonObject,
  {
    keep: keepId,
    remove: removeId,
    picks = {},
  }: {
    readonly keep: string;
    readonly remove: string;
    readonly picks?: Readonly<Record<string, LinkMergeSide>>;
  },
): LinkMergePlan {
  const allLinks = isPlainObject(config['allLinks']) ? config['allLinks'] : {};
  const keep = Object.hasOwn(allLinks, keepId) ? allLinks[keepId] : undefined;
  const remove = Object.hasOwn(allLinks, removeId)
    ? allLinks[removeId]
    : undefined;
  if (!isPlainObject(keep) || !isPlainObject(remove) || keepId === removeId)
    throw new Error(`cannot merge "${removeId}" into "${keepId}"`);

  // The kept link's fields keep their order (a merge patch can then say the change); new ones come last.
  const merged: JsonObject = {};
  const tags = [...new Set([...tagsOf(keep), ...tagsOf(remove)])];
  for (const field of new Set([...Object.keys(keep), ...Object.keys(remove)])) {
    if (field === 'tags') {
      if (tags.length > 0 || Object.hasOwn(keep, 'tags'))
        setOwn(merged, field, tags);
      continue;
    }
    const side =
      picks[field] ?? (Object.hasOwn(keep, field) ? 'keep' : 'remove');
    const source = side === 'keep' ? keep : remove;
    if (Object.hasOwn(source, field)) setOwn(merged, field, source[field]);
  }

  const nextLinks: JsonObject = {};
  for (const [id, link] of Object.entries(allLinks)) {
    if (id === removeId) continue;
    setOwn(nextLinks, id, id === keepId ? merged : link);
  }

  const from = new Set([removeId]);
  const rewrite = (text: string): string =>
    renameIdInExpression(text, from, keepId);
  const references: ExpressionChange[] = [];
  let nextMacros: unknown = config['macros'];
  const names = (text: string) => idsNamedIn(text).includes(removeId);
  for (const place of expressionPlaces(config, names)) {
    const after = rewrite(place.text);
    if (after === place.text) continue;
    references.push({ where: place.where, before: place.text, after });
    if (place.macro !== undefined && isPlainObject(nextMacros)) {
      if (nextMacros === config['macros']) nextMacros = { ...nextMacros };
      const macro = (nextMacros as JsonObject)[place.macro];
      setOwn(nextMacros as JsonObject, place.macro, {
        ...(macro as JsonObject),
        linkItems: after,
      });
    }
  }
  const settings = config['settings'];
  const nextSettings = mapSettingsStrings(settings, rewrite);

  const next: JsonObject = { ...config, allLinks: nextLinks };
  if (nextMacros !== config['macros']) next['macros'] = nextMacros;
  if (nextSettings !== settings) next['settings'] = nextSettings;
  return {
    next,
    merged,
    references,
    differing: differingFields(keep, remove),
  };
}
