/**
 * Links whose URLs are one after {@link normalizeUrl}, within one config or across several.
 */
import { isPlainObject } from '../util/is-plain-object.js';
import { normalizeUrl } from './url-identity.js';

/** One link of a duplicate group. */
export interface DuplicateMember {
  readonly config: string;
  readonly id: string;
  readonly url: string;
}

/** Links that share one normalized URL (at least two). */
export interface DuplicateGroup {
  readonly key: string;
  readonly members: readonly DuplicateMember[];
}

/** The duplicate groups of the given configs, in the order their first member is met. */
export function findDuplicates(
  configs: readonly { readonly name: string; readonly config: unknown }[],
): DuplicateGroup[] {
  const groups = new Map<string, DuplicateMember[]>();
  for (const { name, config } of configs) {
    const allLinks = isPlainObject(config) ? config['allLinks'] : undefined;
    if (!isPlainObject(allLinks)) continue;
    for (const [id, link] of Object.entries(allLinks)) {
      const url = isPlainObject(link) ? link['url'] : undefined;
      if (typeof url !== 'string' || url.trim() === '') continue;
      const key = normalizeUrl(url);
      const members = groups.get(key);
      const member = { config: name, id, url };
      if (members === undefined) groups.set(key, [member]);
      else members.push(member);
    }
  }
  return [...groups]
    .filter(([, members]) => members.length > 1)
    .map(([key, members]) => ({ key, members }));
}

/** The ids of `config`'s links whose URL is `url` after normalization (for a warning while typing). */
export function linksWithUrl(
  config: unknown,
  url: string,
  exceptId?: string,
): string[] {
  const allLinks = isPlainObject(config) ? config['allLinks'] : undefined;
  if (!isPlainObject(allLinks) || url.trim() === '') return [];
  const key = normalizeUrl(url);
  const out: string[] = [];
  for (const [id, link] of Object.entries(allLinks)) {
    if (id === exceptId) continue;
    const other = isPlainObject(link) ? link['url'] : undefined;
    if (typeof other === 'string' && normalizeUrl(other) === key) out.push(id);
  }
  return out;
}
