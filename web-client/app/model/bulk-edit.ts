/**
 * Bulk edits of the selected links, as pure rules: what one action (add or remove tags, delete, set or
 * clear a field, move or copy to another config) does, said as ONE JSON Merge Patch per config. The
 * page applies the patch to the config with the shared `applyMergePatch` and saves it once, so each
 * action is one write and one revision; the store's delivery sends the same difference as a `PATCH`.
 *
 * A patch names only the links that change: a tag already there, a field already holding the value,
 * an id not in the config is left out, and a patch with nothing in it changes nothing.
 */
import {
  applyMergePatch,
  createMergePatch,
  normalizeTag,
  tagsFromText,
  withLinkOrder,
} from '@linkconfig/shared';
import type { Link, LinkConfig, MergePatch } from '@linkconfig/shared';
import { parseExtras } from './link-extras.js';

/** One bulk action on the selected links of the open config. */
export type BulkAction =
  | { kind: 'add-tags'; tags: string }
  | { kind: 'remove-tags'; tags: string }
  | { kind: 'delete' }
  /** Sets `field` to `value` (text, or JSON for a value starting with `[` or `{`); `''` removes it. */
  | { kind: 'set-field'; field: string; value: string };

/** What a bulk action comes to: its merge patch, or why it cannot run. */
export type BulkPlan =
  | { ok: true; patch: MergePatch; changed: string[] }
  | { ok: false; problem: string };

/** The fields a bulk "set" may not touch: each link's own, or with an action of its own. */
const NOT_SET = new Set(['url', 'label', 'tags', 'id']);

/** The merge patch of `action` over the links `ids` of `config`. */
export function bulkPatch(
  config: LinkConfig,
  ids: readonly string[],
  action: BulkAction,
): BulkPlan {
  const links = config.allLinks;
  const present = ids.filter((id) => Object.hasOwn(links, id));
  if (present.length === 0)
    return { ok: false, problem: 'Select links first.' };
  const patchOf = linkPatcher(action);
  if (!patchOf.ok) return patchOf;
  // Built as entries: an id is data, never a key that could reach a prototype.
  const changes: [string, unknown][] = [];
  for (const id of present) {
    const change = patchOf.change(links[id] as Link);
    if (change !== undefined) changes.push([id, change]);
  }
  if (changes.length === 0)
    return {
      ok: false,
      problem: 'Nothing to change: the selected links already are so.',
    };
  return {
    ok: true,
    patch: { allLinks: Object.fromEntries(changes) },
    changed: changes.map(([id]) => id),
  };
}

/** How one link changes under `action`: its member of the patch, or undefined for no change. */
type LinkChange = (link: Link) => unknown;

function linkPatcher(
  action: BulkAction,
): { ok: true; change: LinkChange } | { ok: false; problem: string } {
  switch (action.kind) {
    case 'delete':
      return { ok: true, change: () => null };
    case 'add-tags': {
      const add = tagsFromText(action.tags);
      if (add.length === 0)
        return { ok: false, problem: 'Enter a tag to add.' };
      return {
        ok: true,
        change: (link) => {
          const tags = link.tags ?? [];
          const missing = add.filter((tag) => !tags.includes(tag));
          return missing.length === 0
            ? undefined
            : { tags: [...tags, ...missing] };
        },
      };
    }
    case 'remove-tags': {
      const typed = action.tags
        .split(',')
        .map((tag) => tag.trim())
        .filter((tag) => tag !== '');
      if (typed.length === 0)
        return { ok: false, problem: 'Enter a tag to remove.' };
      // A tag is removed as typed, or as the tag rule stores what was typed.
      const remove = new Set([...typed, ...typed.map(normalizeTag)]);
      return {
        ok: true,
        change: (link) => {
          const tags = link.tags ?? [];
          const kept = tags.filter((tag) => !remove.has(tag));
          if (kept.length === tags.length) return undefined;
          return { tags: kept.length === 0 ? null : kept };
        },
      };
    }
    case 'set-field':
      return fieldPatcher(action.field.trim(), action.value);
  }
}

/** Setting (or with an empty value, removing) one field; read as the link form reads other fields. */
function fieldPatcher(
  field: string,
  text: string,
): { ok: true; change: LinkChange } | { ok: false; problem: string } {
  if (field === '') return { ok: false, problem: 'Enter a field name.' };
  if (NOT_SET.has(field))
    return {
      ok: false,
      problem: `“${field}” differs per link: edit it in the link's form or the table.`,
    };
  let value: unknown = text;
  if (text.trim() !== '' && field !== 'description') {
    // The link form's rule for other fields: the name, JSON for `[`/`{`, the schema of known fields.
    const parsed = parseExtras([{ key: field, value: text, json: false }]);
    if (!parsed.ok) return { ok: false, problem: parsed.problem };
    value = parsed.values[field];
  }
  const remove = typeof value === 'string' && value.trim() === '';
  return {
    ok: true,
    change: (link) => {
      const has = Object.hasOwn(link, field);
      if (remove) return has ? { [field]: null } : undefined;
      if (has && JSON.stringify(link[field]) === JSON.stringify(value))
        return undefined;
      return { [field]: value };
    },
  };
}

/** A move or copy of links to another config: one patch for each config it writes. */
export type TransferPlan =
  | {
      ok: true;
      /** The patch of the config the links come from (absent for a copy). */
      source?: MergePatch;
      target: MergePatch;
      ids: string[];
    }
  | { ok: false; problem: string };

/**
 * Moving (or copying) the links `ids` of `source` into `target`. An id the target already has is
 * refused rather than replaced or renamed (macros name links by id), with the ids that clash.
 */
export function transferPatches(
  { source, target }: { source: LinkConfig; target: LinkConfig },
  ids: readonly string[],
  mode: 'move' | 'copy',
): TransferPlan {
  const present = ids.filter((id) => Object.hasOwn(source.allLinks, id));
  if (present.length === 0)
    return { ok: false, problem: 'Select links first.' };
  const clash = present.filter((id) => Object.hasOwn(target.allLinks, id));
  if (clash.length > 0)
    return {
      ok: false,
      problem: `The other config already has ${clash.length === 1 ? 'a link' : `${clash.length} links`} with ${clash.length === 1 ? 'this id' : 'these ids'}: ${clash.slice(0, 5).join(', ')}${clash.length > 5 ? ', …' : ''}. Rename ${clash.length === 1 ? 'it' : 'them'} first.`,
    };
  const adds = present.map((id) => [id, source.allLinks[id]] as const);
  const removes = present.map((id) => [id, null] as const);
  return {
    ok: true,
    ...(mode === 'move'
      ? { source: { allLinks: Object.fromEntries(removes) } }
      : {}),
    target: { allLinks: Object.fromEntries(adds) },
    ids: present,
  };
}

/** `config` with `patch` applied (the shared RFC 7396 rule). */
export function patched(config: LinkConfig, patch: MergePatch): LinkConfig {
  return applyMergePatch(config, patch) as LinkConfig;
}

/**
 * What Undo saves: `current` with the bulk action (`before` → `after`) taken back, and the links in
 * `before`'s order again (a deleted link returns to its place, not the end). Changes made to other
 * links since stay.
 */
export function undone(
  current: LinkConfig,
  before: LinkConfig,
  after: LinkConfig,
): LinkConfig {
  // A merge patch cannot say an order: take the action back with `before`'s links in `after`'s order
  // (those it lost last), then put them in `before`'s order below.
  const order = Object.keys(before.allLinks);
  const stayed = Object.keys(after.allLinks).filter((id) =>
    Object.hasOwn(before.allLinks, id),
  );
  const lost = order.filter((id) => !Object.hasOwn(after.allLinks, id));
  const inverse = createMergePatch(after, {
    ...before,
    allLinks: withLinkOrder(before.allLinks, [...stayed, ...lost]),
  });
  const back =
    inverse === undefined ? structuredClone(before) : patched(current, inverse);
  const links = back.allLinks;
  const kept = new Set(order.filter((id) => Object.hasOwn(links, id)));
  const ids = [...kept, ...Object.keys(links).filter((id) => !kept.has(id))];
  return {
    ...back,
    allLinks: Object.fromEntries(ids.map((id) => [id, links[id] as Link])),
  };
}
