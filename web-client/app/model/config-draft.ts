/**
 * Edits of a config draft, as pure functions: each returns a new config and leaves the old one as it
 * was. Fields and sections the page does not show (descriptions, hooks, meta, other top-level keys)
 * are kept, and so is the order of links, macros and patterns.
 */
import { idForLabel, tagsFromText } from '@linkconfig/shared';
import type { Link, LinkConfig, SearchPattern } from '@linkconfig/shared';
import { extraFields, parseExtras } from './link-extras.js';
import type { ExtraField } from './link-extras.js';

/** The options of an object-form search pattern, as the shared schema infers them. */
type SearchPatternOptions = NonNullable<
  Exclude<SearchPattern, string>['options']
>;

/** What the link form edits. */
export interface LinkFields {
  id: string;
  label: string;
  url: string;
  tags: string;
  description?: string;
  /** Every other field; when left out, the link's other fields are kept as they are. */
  extras?: ExtraField[];
}

/** The form fields of an existing link (or empty ones). */
export function linkFields(id: string, link: Link | undefined): LinkFields {
  return {
    id,
    label: link?.label ?? '',
    url: link?.url ?? '',
    tags: (link?.tags ?? []).join(', '),
    description: typeof link?.description === 'string' ? link.description : '',
    extras: extraFields(link),
  };
}

/**
 * The id a new link gets from its label (or, without one, its URL) by the import's rule, unique among
 * the config's ids; `''` while both are empty.
 */
export function suggestedLinkId(
  fields: Pick<LinkFields, 'label' | 'url'>,
  config: LinkConfig,
): string {
  const source = fields.label.trim() || fields.url.trim();
  return source === '' ? '' : idForLabel(source, Object.keys(config.allLinks));
}

/**
 * The link form's values after `field` changed to `value`. While a new link's id is empty or still the
 * one made from the label, it follows the label (and URL); once the person types an id, it stays.
 */
export function withLinkField(
  values: LinkFields,
  change: { field: keyof LinkFields; value: string; adding: boolean },
  config: LinkConfig,
): LinkFields {
  const next = { ...values, [change.field]: change.value };
  if (
    change.adding &&
    (change.field === 'label' || change.field === 'url') &&
    (values.id.trim() === '' || values.id === suggestedLinkId(values, config))
  )
    next.id = suggestedLinkId(next, config);
  return next;
}

/**
 * Puts a link from the form into `config.allLinks`. `replacing` is the id of the link being edited:
 * renaming keeps its place in the order; an id that is taken by another link replaces that one.
 */
export function putLink(
  config: LinkConfig,
  fields: LinkFields,
  replacing: string | null,
): LinkConfig {
  const id = fields.id.trim();
  const previous =
    replacing === null ? config.allLinks[id] : config.allLinks[replacing];
  // Fields the form leaves out are kept; extras the form lists replace the others.
  const extras = fields.extras && parseExtras(fields.extras);
  const link: Link =
    extras?.ok === true
      ? { ...extras.values, url: fields.url.trim() }
      : { ...previous, url: fields.url.trim() };
  if (fields.description !== undefined) {
    if (fields.description.trim() === '') delete link.description;
    else link.description = fields.description;
  } else if (extras?.ok === true && previous?.description !== undefined)
    link.description = previous.description;
  const label = fields.label.trim();
  if (label) link.label = label;
  else delete link.label;
  const tags = tagsFromText(fields.tags);
  if (tags.length > 0) link.tags = tags;
  else delete link.tags;
  return {
    ...config,
    allLinks: renameEntry(config.allLinks, { replacing, id, value: link }),
  };
}

/** Removes link `id`. */
export function removeLink(config: LinkConfig, id: string): LinkConfig {
  return { ...config, allLinks: without(config.allLinks, id) };
}

/** Puts macro `name` (renaming `replacing`, if given). */
export function putMacro(
  config: LinkConfig,
  macro: { name: string; expression: string },
  replacing: string | null,
): LinkConfig {
  const macros = config.macros ?? {};
  const name = macro.name.trim();
  const previous = macros[replacing ?? name];
  return {
    ...config,
    macros: renameEntry(macros, {
      replacing,
      id: name,
      value: { ...previous, linkItems: macro.expression.trim() },
    }),
  };
}

/** Removes macro `name`. */
export function removeMacro(config: LinkConfig, name: string): LinkConfig {
  return { ...config, macros: without(config.macros ?? {}, name) };
}

/** The parts of a search pattern that the pattern form edits. */
export interface PatternFields {
  key: string;
  pattern: string;
  /** Field letters (`l`, `u`, `t`, `d`, `k`, `a`), empty for all. */
  fields: string;
  /** `''` (catalog order), `alpha`, `newest` or `oldest`. */
  sort: string;
  /** Empty for the default. */
  limit: string;
}

/** The form fields of a stored pattern. */
export function patternFields(
  key: string,
  stored: SearchPattern | undefined,
): PatternFields {
  if (stored === undefined || typeof stored === 'string')
    return { key, pattern: stored ?? '', fields: '', sort: '', limit: '' };
  const options = stored.options ?? {};
  return {
    key,
    pattern: stored.pattern,
    fields: typeof options.fields === 'string' ? options.fields : '',
    sort: typeof options.sort === 'string' ? options.sort : '',
    limit:
      options.limit === undefined || options.limit === null
        ? ''
        : String(options.limit),
  };
}

/**
 * Puts a search pattern: a plain string when it has no options, otherwise `{ pattern, options }`,
 * keeping options the form does not show (such as `age`).
 */
export function putPattern(
  config: LinkConfig,
  fields: PatternFields,
  replacing: string | null,
): LinkConfig {
  const patterns = config.searchPatterns ?? {};
  const key = fields.key.trim();
  const previous = patterns[replacing ?? key];
  const options: Record<string, unknown> = {
    ...(typeof previous === 'object' ? previous.options : undefined),
  };
  setOption(options, 'fields', fields.fields.replace(/[\s,]/g, ''));
  setOption(options, 'sort', fields.sort);
  const limit = fields.limit.trim();
  if (limit === '') delete options['limit'];
  else options['limit'] = Number(limit);
  const value: SearchPattern =
    Object.keys(options).length === 0 &&
    (previous === undefined || typeof previous === 'string')
      ? fields.pattern
      : {
          ...(typeof previous === 'object' ? previous : {}),
          pattern: fields.pattern,
          // The form wrote only strings and a number into these options.
          options: options as SearchPatternOptions,
        };
  return {
    ...config,
    searchPatterns: renameEntry(patterns, { replacing, id: key, value }),
  };
}

/** Removes search pattern `key`. */
export function removePattern(config: LinkConfig, key: string): LinkConfig {
  return {
    ...config,
    searchPatterns: without(config.searchPatterns ?? {}, key),
  };
}

/** Replaces the settings; `undefined` removes them. */
export function putSettings(
  config: LinkConfig,
  settings: LinkConfig['settings'],
): LinkConfig {
  const next = { ...config };
  if (settings === undefined) delete next.settings;
  else next.settings = settings;
  return next;
}

/** The settings as the page shows them for editing: pretty JSON, or empty. */
export function settingsText(config: LinkConfig): string {
  return config.settings === undefined
    ? ''
    : JSON.stringify(config.settings, null, 2);
}

function setOption(
  options: Record<string, unknown>,
  key: string,
  value: string,
): void {
  if (value === '') delete options[key];
  else options[key] = value;
}

/**
 * `entries` with `value` under `id`: at the place of `replacing` when renaming, at the place of `id`
 * when it exists, else at the end. Another entry already under `id` is replaced.
 */
function renameEntry<T>(
  entries: Record<string, T>,
  change: { replacing: string | null; id: string; value: T },
): Record<string, T> {
  const { replacing, id, value } = change;
  const out: Record<string, T> = {};
  for (const [key, existing] of Object.entries(entries)) {
    if (key === replacing || key === id) {
      if (!Object.hasOwn(out, id)) out[id] = value;
    } else out[key] = existing;
  }
  if (!Object.hasOwn(out, id)) out[id] = value;
  return out;
}

function without<T>(entries: Record<string, T>, id: string): Record<string, T> {
  const out: Record<string, T> = {};
  for (const [key, value] of Object.entries(entries))
    if (key !== id) out[key] = value;
  return out;
}
