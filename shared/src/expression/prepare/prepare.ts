/**
 * Config preparation (docs/expression-reference.md §13): once per config version, invalid links, macros and
 * patterns disappear, blocked keys are removed at every depth, URLs are sanitized, and the indexes the
 * evaluator uses (catalog order, positions, tags) are built. Never throws. One algorithm, a sliced
 * computation (`util/slices.ts`): {@link prepareConfig} runs it at once, {@link prepareConfigInSlices}
 * lets a server answer other requests while it prepares a large config.
 */
import { isPlainObject } from '../../util/is-plain-object.js';
import { runAtOnce, runInSlices } from '../../util/slices.js';
import type { Sliced, SliceOptions } from '../../util/slices.js';
import { BLOCKED_KEYS, cleanValue, ownValue } from './clean-value.js';
import { sanitizeUrl } from '../safety/sanitize-url.js';
import { PLAIN_STRING_FIELDS } from '../types.js';
import {
  compileSafePattern,
  searchPatternProblem,
} from '../safety/safe-pattern.js';
import type {
  DroppedNames,
  PreparedConfig,
  PreparedLink,
  PreparedSearchPattern,
  SearchPatternProblem,
} from '../types.js';

/** Entries (links, macros, patterns) prepared between two points where preparation may pause. */
export const ENTRIES_PER_STEP = 64;

/** URL-bearing string fields that are sanitized (docs/expression-reference.md §15). */
const URL_FIELDS: ReadonlySet<string> = new Set(['image', 'thumbnail']);

/** Whether a name can be used: not blocked, no `-` (the WITHOUT operator). */
function usableName(name: string): boolean {
  return !name.includes('-') && !BLOCKED_KEYS.has(name);
}

/** The own enumerable keys of `value` when it is a plain object, else none. */
function ownKeys(value: unknown): string[] {
  return isPlainObject(value) ? Object.keys(value) : [];
}

/** String elements of an array value; `undefined` when it is not an array. */
function stringElements(value: unknown): string[] | undefined {
  if (!Array.isArray(value)) return undefined;
  return value.filter((item): item is string => typeof item === 'string');
}

/** `meta` without blocked keys, its `…url` string values sanitized. */
function prepareMeta(meta: Record<string, unknown>): Record<string, unknown> {
  const clean = cleanValue(meta) as Record<string, unknown>;
  for (const key of Object.keys(clean)) {
    const value = clean[key];
    if (typeof value === 'string' && key.toLowerCase().endsWith('url')) {
      clean[key] = sanitizeUrl(value);
    }
  }
  return clean;
}

/**
 * One link in its prepared form, or `undefined` when it is dropped (docs/expression-reference.md §13). Tags
 * removed for containing `-` are added to `droppedTags` when it is given (diagnostics only).
 */
export function prepareLink(
  raw: unknown,
  droppedTags?: Set<string>,
): PreparedLink | undefined {
  if (!isPlainObject(raw)) return undefined;
  const url = ownValue(raw, 'url');
  if (typeof url !== 'string') return undefined;
  const link: PreparedLink = { url: sanitizeUrl(url) };
  const label = ownValue(raw, 'label');
  if (typeof label === 'string') link.label = label;
  const tags = stringElements(ownValue(raw, 'tags'));
  if (tags !== undefined) {
    link.tags = tags.filter((tag) => {
      if (!tag.includes('-')) return true;
      droppedTags?.add(tag);
      return false;
    });
  }
  for (const field of PLAIN_STRING_FIELDS) {
    const value = ownValue(raw, field);
    if (typeof value === 'string') {
      link[field] = URL_FIELDS.has(field) ? sanitizeUrl(value) : value;
    }
  }
  const hooks = stringElements(ownValue(raw, 'hooks'));
  if (hooks !== undefined) link.hooks = hooks;
  const guid = ownValue(raw, 'guid');
  if (typeof guid === 'string') link.guid = guid;
  const createdAt = ownValue(raw, 'createdAt');
  if (createdAt !== undefined) link.createdAt = cleanValue(createdAt);
  const schemes = stringElements(ownValue(raw, 'allowedSchemes'))?.filter(
    (scheme) => scheme !== '',
  );
  if (schemes !== undefined && schemes.length > 0) {
    link.allowedSchemes = schemes;
  }
  const meta = ownValue(raw, 'meta');
  if (isPlainObject(meta)) link.meta = prepareMeta(meta);
  return link;
}

/** Whether the entry at `index` of a section is a point where preparation may pause. */
const pausesAt = (index: number) => index > 0 && index % ENTRIES_PER_STEP === 0;

/** Valid links in catalog order, with the position and tag indexes. */
function* prepareLinks(
  allLinks: unknown,
  dropped: { ids: Set<string>; tags: Set<string> },
): Sliced<Pick<PreparedConfig, 'ids' | 'links' | 'position' | 'tagIndex'>> {
  const ids: string[] = [];
  const links = new Map<string, PreparedLink>();
  const position = new Map<string, number>();
  const tagIndex = new Map<string, string[]>();
  let step = 0;
  for (const id of ownKeys(allLinks)) {
    if (pausesAt(step++)) yield;
    if (!usableName(id)) {
      if (id.includes('-')) dropped.ids.add(id);
      continue;
    }
    let link: PreparedLink | undefined;
    try {
      link = prepareLink(
        (allLinks as Record<string, unknown>)[id],
        dropped.tags,
      );
    } catch {
      link = undefined;
    }
    if (link === undefined) continue;
    position.set(id, ids.length);
    ids.push(id);
    links.set(id, link);
    for (const tag of new Set(link.tags)) {
      const members = tagIndex.get(tag);
      if (members === undefined) tagIndex.set(tag, [id]);
      else members.push(id);
    }
  }
  return { ids, links, position, tagIndex };
}

/** Macros with a usable name and a string `linkItems`. */
function* prepareMacros(macros: unknown): Sliced<Map<string, string>> {
  const out = new Map<string, string>();
  let step = 0;
  for (const name of ownKeys(macros)) {
    if (pausesAt(step++)) yield;
    if (!usableName(name)) continue;
    const entry = (macros as Record<string, unknown>)[name];
    const items = isPlainObject(entry)
      ? ownValue(entry, 'linkItems')
      : undefined;
    if (typeof items === 'string') out.set(name, items);
  }
  return out;
}

/**
 * Search patterns with a usable key whose pattern passes the heuristic and compiles
 * (docs/expression-reference.md §8.4, D3).
 */
function* prepareSearchPatterns(
  patterns: unknown,
  dropped: Map<string, SearchPatternProblem>,
): Sliced<Map<string, PreparedSearchPattern>> {
  const out = new Map<string, PreparedSearchPattern>();
  let step = 0;
  for (const key of ownKeys(patterns)) {
    if (pausesAt(step++)) yield;
    if (!usableName(key)) {
      if (key.includes('-')) dropped.set(key, 'hyphen');
      continue;
    }
    const entry = (patterns as Record<string, unknown>)[key];
    let pattern: unknown = entry;
    let options: unknown = undefined;
    if (isPlainObject(entry)) {
      pattern = ownValue(entry, 'pattern');
      options = ownValue(entry, 'options');
    }
    if (typeof pattern !== 'string') {
      dropped.set(key, 'shape');
      continue;
    }
    const regex = compileSafePattern(pattern);
    if (regex === null) {
      dropped.set(key, searchPatternProblem(pattern) ?? 'unsupported');
      continue;
    }
    out.set(key, {
      regex,
      options: isPlainObject(options)
        ? (cleanValue(options) as Record<string, unknown>)
        : {},
    });
  }
  return out;
}

const EMPTY_CONFIG: PreparedConfig = {
  ids: [],
  links: new Map(),
  position: new Map(),
  tagIndex: new Map(),
  macros: new Map(),
  searchPatterns: new Map(),
  protocolNames: new Set(),
  settings: undefined,
  source: { linkKeys: [], macroKeys: null, patternKeys: null },
};

/** The own keys of a section without the blocked ones, or `null` when it is not an object. */
function sectionKeys(section: unknown): string[] | null {
  return isPlainObject(section)
    ? Object.keys(section).filter((key) => !BLOCKED_KEYS.has(key))
    : null;
}

/**
 * Prepares a raw config (docs/expression-reference.md §13). A config without `allLinks` (or with a non-object
 * one) has no links (D2); a value that is not an object at all prepares as an empty config. Cost is linear in
 * the config size.
 */
export function prepareConfig(config: unknown): PreparedConfig {
  return runAtOnce(preparing(config));
}

/**
 * {@link prepareConfig} in slices of at most about `options.sliceMs` (plus one step of
 * {@link ENTRIES_PER_STEP} entries), pausing between them with `options.pause`; the same result. The config
 * must not change until the promise settles.
 */
export function prepareConfigInSlices(
  config: unknown,
  options: SliceOptions,
): Promise<PreparedConfig> {
  return runInSlices(preparing(config), options);
}

/** The preparation, as a sliced computation. */
function* preparing(config: unknown): Sliced<PreparedConfig> {
  if (!isPlainObject(config)) return EMPTY_CONFIG;
  try {
    const settings = ownValue(config, 'settings');
    const allLinks = ownValue(config, 'allLinks');
    const macros = ownValue(config, 'macros');
    const patterns = ownValue(config, 'searchPatterns');
    const dropped = {
      ids: new Set<string>(),
      tags: new Set<string>(),
      searchPatterns: new Map<string, SearchPatternProblem>(),
    } satisfies DroppedNames;
    return {
      ...(yield* prepareLinks(allLinks, dropped)),
      macros: yield* prepareMacros(macros),
      searchPatterns: yield* prepareSearchPatterns(
        patterns,
        dropped.searchPatterns,
      ),
      protocolNames: new Set(
        ownKeys(ownValue(config, 'protocols')).filter(
          (name) => !BLOCKED_KEYS.has(name),
        ),
      ),
      settings: isPlainObject(settings)
        ? (cleanValue(settings) as Record<string, unknown>)
        : undefined,
      dropped,
      source: {
        linkKeys: sectionKeys(allLinks) ?? [],
        macroKeys: sectionKeys(macros),
        patternKeys: sectionKeys(patterns),
      },
    };
  } catch {
    return EMPTY_CONFIG;
  }
}
