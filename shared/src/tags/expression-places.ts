/**
 * Where a config holds expressions a rename must follow: every macro's `linkItems`, and every string in
 * `settings` (free-form, so a client may keep expressions there) that names what is renamed (a tag as
 * `.tag`; a link id, for a merge of links). Search
 * patterns are regular expressions, not expressions: they are reported for review, never rewritten.
 */
import { isPlainObject } from '../util/is-plain-object.js';
import { setOwn } from '../util/own-property.js';
import { tagsNamedIn } from './rewrite-expression.js';

/** How deep into `settings` the walk goes (stored configs are bounded far below this). */
const MAX_SETTINGS_DEPTH = 64;

/** One expression of a config: a readable place (`macros.m`, `settings.menus[2].expr`) and its text. */
export interface ExpressionPlace {
  readonly where: string;
  readonly text: string;
  /** The macro's name when the place is a macro's `linkItems`. */
  readonly macro?: string;
}

/**
 * Every macro expression, then every settings string that `names` says is an expression worth following
 * (by default: one that names at least one tag).
 */
export function expressionPlaces(
  config: Record<string, unknown>,
  names: (text: string) => boolean = (text) => tagsNamedIn(text).length > 0,
): ExpressionPlace[] {
  const places: ExpressionPlace[] = [];
  const macros = config['macros'];
  if (isPlainObject(macros)) {
    for (const [name, macro] of Object.entries(macros)) {
      const text = isPlainObject(macro) ? macro['linkItems'] : undefined;
      if (typeof text === 'string') {
        places.push({ where: `macros.${name}`, text, macro: name });
      }
    }
  }
  walkSettings(
    config['settings'],
    { where: 'settings', depth: 0 },
    (where, text) => {
      if (names(text)) places.push({ where, text });
    },
  );
  return places;
}

/** Calls `visit` for each string in a settings value, depth first, in key order. */
function walkSettings(
  value: unknown,
  { where, depth }: { readonly where: string; readonly depth: number },
  visit: (where: string, text: string) => void,
): void {
  if (depth > MAX_SETTINGS_DEPTH) return;
  if (typeof value === 'string') visit(where, value);
  else if (Array.isArray(value)) {
    value.forEach((item, index) => {
      walkSettings(
        item,
        { where: `${where}[${String(index)}]`, depth: depth + 1 },
        visit,
      );
    });
  } else if (isPlainObject(value)) {
    for (const [key, item] of Object.entries(value)) {
      walkSettings(item, { where: `${where}.${key}`, depth: depth + 1 }, visit);
    }
  }
}

/**
 * A copy of a settings value with `rewrite` applied to every string (arrays and objects copied only where
 * something changed, so an untouched settings value is returned as is).
 */
export function mapSettingsStrings(
  value: unknown,
  rewrite: (text: string) => string,
  depth = 0,
): unknown {
  if (depth > MAX_SETTINGS_DEPTH) return value;
  if (typeof value === 'string') return rewrite(value);
  if (Array.isArray(value)) {
    const items = value.map((item) =>
      mapSettingsStrings(item, rewrite, depth + 1),
    );
    return items.every((item, index) => item === value[index]) ? value : items;
  }
  if (isPlainObject(value)) {
    let changed = false;
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      const next = mapSettingsStrings(item, rewrite, depth + 1);
      if (next !== item) changed = true;
      setOwn(out, key, next);
    }
    return changed ? out : value;
  }
  return value;
}
