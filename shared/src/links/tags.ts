/**
 * The one tag rule of the service: what the import stores, what the page's link form stores, and what
 * renaming or merging tags produces. A tag is folded by {@link toWordName}, so `.name` in an expression
 * can always select it.
 */
import { toWordName } from './word-name.js';

/** The tag rule in words (the import report and the page state it). */
export const TAG_RULE =
  'tags are lower-cased, accents are removed, every run of other characters than a-z, 0-9 and _ becomes one _, and _ at either end is dropped (so ".web_dev" selects "Web Dev"); a tag left empty is dropped';

/** A tag by {@link TAG_RULE}; `''` when nothing is left (such a tag is dropped). */
export function normalizeTag(tag: string): string {
  return toWordName(tag);
}

/** Tags by {@link TAG_RULE}, in their first order, without empty ones and without repeats. */
export function normalizeTags(tags: readonly string[]): string[] {
  return [...new Set(tags.map(normalizeTag).filter((tag) => tag !== ''))];
}

/** The tags of a comma-separated text (as a person types them), by {@link TAG_RULE}. */
export function tagsFromText(text: string): string[] {
  return normalizeTags(text.split(','));
}

/** The typed tags (comma separated, trimmed) that the rule leaves empty, so they would be dropped. */
export function droppedTags(text: string): string[] {
  return text
    .split(',')
    .map((tag) => tag.trim())
    .filter((tag) => tag !== '' && normalizeTag(tag) === '');
}
