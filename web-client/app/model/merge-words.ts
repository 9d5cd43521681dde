/**
 * What a path of the three-way merge (`shared/sync`) names, in the page's words: the link and field, or
 * the part of the config. Used by the notes that say what was merged and by the conflict rows.
 */
import type { MergePath } from '@linkconfig/shared';

/** How the other parts of a config read. */
export const PART_NAMES: Readonly<Record<string, string>> = {
  macros: 'macros',
  searchPatterns: 'search patterns',
  settings: 'settings',
  other: 'other fields',
};

/** What a path names: the link it is in (if any) and words for it. */
export function placeOf(path: MergePath): { link?: string; text: string } {
  const [part, key, field] = path;
  if (part === undefined) return { text: 'the whole config' };
  if (part === 'allLinks' && key !== undefined) {
    return field === undefined
      ? { link: key, text: `link ${key} (removed on one side)` }
      : { link: key, text: `link ${key} · ${field}` };
  }
  return {
    text: key === undefined ? part : `${PART_NAMES[part] ?? part} · ${key}`,
  };
}

/**
 * Paths in words for a sentence, fields of one link together ("link a (label, url), settings ·
 * theme"); at most `limit` places are named, then how many more.
 */
export function describePaths(paths: readonly MergePath[], limit = 6): string {
  const places: string[] = [];
  const fieldsOf = new Map<string, string[]>();
  for (const path of paths) {
    const [part, key, field] = path;
    if (part === 'allLinks' && key !== undefined) {
      let fields = fieldsOf.get(key);
      if (fields === undefined) {
        fields = [];
        fieldsOf.set(key, fields);
        places.push(`\u0000${key}`);
      }
      if (field !== undefined) fields.push(field);
      continue;
    }
    places.push(placeOf(path).text);
  }
  const words = places.map((place) => {
    if (!place.startsWith('\u0000')) return place;
    const key = place.slice(1);
    const fields = fieldsOf.get(key) ?? [];
    return fields.length === 0
      ? `link ${key}`
      : `link ${key} (${fields.join(', ')})`;
  });
  const shown = words.slice(0, limit).join(', ');
  const more = words.length - limit;
  return more > 0 ? `${shown} and ${more} more` : shown;
}
