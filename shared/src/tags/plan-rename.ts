/**
 * A tag rename or merge, planned on one config: the next config, the merge patch that makes it, and the
 * preview (links touched, expressions rewritten, each macro's resolved ids before and after by the shared
 * engine, flags). The server's rename route and the page's Tags view both call this; nothing else renames.
 */
import type {
  ExpressionChange,
  MacroOutcome,
  TagRenamePreview,
} from '../schemas/tags.js';
import { prepareConfig } from '../expression/prepare/prepare.js';
import { resolveIds } from '../expression/evaluate/resolve.js';
import { compileSafePattern } from '../expression/safety/safe-pattern.js';
import { createMergePatch } from '../sync/merge-patch.js';
import { isPlainObject } from '../util/is-plain-object.js';
import { setOwn } from '../util/own-property.js';
import { expressionPlaces, mapSettingsStrings } from './expression-places.js';
import { renameTagInExpression } from './rewrite-expression.js';

type JsonObject = Record<string, unknown>;

/** A planned rename. */
export interface TagRenamePlan {
  readonly preview: TagRenamePreview;
  /** The config after the rename (the input is never changed). */
  readonly next: JsonObject;
  /** The merge patch from the input to `next`; `undefined` when none can say it (then store `next`). */
  readonly patch: JsonObject | undefined;
  /** Whether anything changes at all. */
  readonly changes: boolean;
}

/** The string tags of a stored link, or `undefined`. */
function tagsOf(link: unknown): string[] | undefined {
  if (!isPlainObject(link) || !Array.isArray(link['tags'])) return undefined;
  return link['tags'].filter((tag): tag is string => typeof tag === 'string');
}

/** Plans renaming every tag in `from` to `to` in `config` (a stored config). */
export function planTagRename(
  config: JsonObject,
  fromTags: readonly string[],
  to: string,
): TagRenamePlan {
  const from = new Set(fromTags);
  const allLinks = isPlainObject(config['allLinks']) ? config['allLinks'] : {};
  const carried = new Map<string, boolean>();
  let toExisted = false;
  const linkPatch: JsonObject = {};
  const nextLinks: JsonObject = {};
  const touched: string[] = [];
  for (const [id, link] of Object.entries(allLinks)) {
    const tags = tagsOf(link);
    setOwn(nextLinks, id, link);
    if (tags === undefined || !isPlainObject(link)) continue;
    const hasFrom = tags.some((tag) => from.has(tag));
    carried.set(id, hasFrom || tags.includes(to));
    if (tags.includes(to) && !from.has(to) && !hasFrom) toExisted = true;
    if (!hasFrom) continue;
    if (tags.includes(to) && !from.has(to)) toExisted = true;
    const renamed = [...new Set(tags.map((tag) => (from.has(tag) ? to : tag)))];
    if (
      renamed.length === tags.length &&
      renamed.every((t, i) => t === tags[i])
    ) {
      continue;
    }
    touched.push(id);
    setOwn(nextLinks, id, { ...link, tags: renamed });
    setOwn(linkPatch, id, { tags: renamed });
  }

  const rewrite = (text: string): string =>
    renameTagInExpression(text, from, to);
  const expressions: ExpressionChange[] = [];
  const macroPatch: JsonObject = {};
  let nextMacros: unknown = config['macros'];
  for (const place of expressionPlaces(config)) {
    const after = rewrite(place.text);
    if (after === place.text) continue;
    expressions.push({ where: place.where, before: place.text, after });
    if (place.macro !== undefined && isPlainObject(nextMacros)) {
      const macro = nextMacros[place.macro];
      if (nextMacros === config['macros']) nextMacros = { ...nextMacros };
      setOwn(nextMacros as JsonObject, place.macro, {
        ...(macro as JsonObject),
        linkItems: after,
      });
      setOwn(macroPatch, place.macro, { linkItems: after });
    }
  }
  const settings = config['settings'];
  const nextSettings = mapSettingsStrings(settings, rewrite);

  const next: JsonObject = { ...config };
  if (touched.length > 0) next['allLinks'] = nextLinks;
  if (nextMacros !== config['macros']) next['macros'] = nextMacros;
  if (nextSettings !== settings) next['settings'] = nextSettings;

  const patch: JsonObject | undefined = {};
  if (touched.length > 0) patch['allLinks'] = linkPatch;
  if (Object.keys(macroPatch).length > 0) patch['macros'] = macroPatch;
  let patchOk = true;
  if (nextSettings !== settings) {
    const settingsPatch =
      isPlainObject(settings) && isPlainObject(nextSettings)
        ? createMergePatch(settings, nextSettings)
        : undefined;
    if (settingsPatch === undefined) patchOk = false;
    else patch['settings'] = settingsPatch;
  }

  const changes = touched.length > 0 || expressions.length > 0;
  const macros = changes
    ? macroOutcomes(config, next, { from, to, toExisted, carried })
    : [];
  const patternsToReview = patternsMatching(config, from);
  const preview: TagRenamePreview = {
    from: [...from],
    to,
    mergesIntoExisting: toExisted,
    links: touched,
    expressions,
    macros,
    patternsToReview,
    notes: [],
  };
  preview.notes.push(...notesOf(preview));
  return { preview, next, patch: patchOk ? patch : undefined, changes };
}

/** What a macro's result may do: a pure rename changes nothing; a merge adds only links of merged tags. */
function macroOutcomes(
  before: JsonObject,
  after: JsonObject,
  rule: {
    readonly from: ReadonlySet<string>;
    readonly to: string;
    readonly toExisted: boolean;
    readonly carried: ReadonlyMap<string, boolean>;
  },
): MacroOutcome[] {
  const macrosBefore = isPlainObject(before['macros']) ? before['macros'] : {};
  const macrosAfter = isPlainObject(after['macros']) ? after['macros'] : {};
  const preparedBefore = prepareConfig(before);
  const preparedAfter = prepareConfig(after);
  const out: MacroOutcome[] = [];
  for (const name of Object.keys(macrosBefore)) {
    const textOf = (macros: JsonObject): unknown => {
      const macro = macros[name];
      return isPlainObject(macro) ? macro['linkItems'] : undefined;
    };
    const was = idsOf(preparedBefore, textOf(macrosBefore));
    const now = idsOf(preparedAfter, textOf(macrosAfter));
    const outcome: MacroOutcome = {
      name,
      before: was,
      after: now,
      flagged: false,
    };
    const reason = unexpectedChange(was, now, rule);
    out.push(
      reason === undefined ? outcome : { ...outcome, flagged: true, reason },
    );
  }
  return out;
}

/** The ids an expression selects; `[]` for anything the engine cannot use (it never throws there). */
function idsOf(
  prepared: ReturnType<typeof prepareConfig>,
  expression: unknown,
): string[] {
  try {
    return resolveIds(prepared, expression);
  } catch {
    return [];
  }
}

/** Why a macro's change is not what the rename implies, or `undefined` when it is. */
function unexpectedChange(
  was: readonly string[],
  now: readonly string[],
  rule: {
    readonly toExisted: boolean;
    readonly carried: ReadonlyMap<string, boolean>;
  },
): string | undefined {
  if (was.length === now.length && was.every((id, i) => id === now[i]))
    return undefined;
  const wasSet = new Set(was);
  const nowSet = new Set(now);
  const lost = was.filter((id) => !nowSet.has(id));
  const gained = now.filter((id) => !wasSet.has(id));
  const list = (ids: readonly string[]) =>
    ids.slice(0, 5).join(', ') + (ids.length > 5 ? ', …' : '');
  if (lost.length > 0) return `no longer selects ${list(lost)}`;
  if (!rule.toExisted) {
    return gained.length > 0
      ? `now also selects ${list(gained)}`
      : 'selects the same links in another order';
  }
  const foreign = gained.filter((id) => rule.carried.get(id) !== true);
  if (foreign.length > 0)
    return `now also selects ${list(foreign)}, which carried none of the merged tags`;
  return undefined;
}

/** Names of the search patterns whose regular expression matches one of the renamed tags. */
function patternsMatching(
  config: JsonObject,
  from: ReadonlySet<string>,
): string[] {
  const patterns = config['searchPatterns'];
  if (!isPlainObject(patterns)) return [];
  const out: string[] = [];
  for (const [name, value] of Object.entries(patterns)) {
    const source =
      typeof value === 'string'
        ? value
        : isPlainObject(value) && typeof value['pattern'] === 'string'
          ? value['pattern']
          : undefined;
    const regex = source === undefined ? null : compileSafePattern(source);
    if (regex !== null && [...from].some((tag) => regex.test(tag)))
      out.push(name);
  }
  return out;
}

/** The preview's sentences. */
function notesOf({
  links,
  expressions,
  mergesIntoExisting: merges,
  to,
  macros,
  patternsToReview: patterns,
}: TagRenamePreview): string[] {
  const notes: string[] = [];
  if (links.length === 0 && expressions.length === 0)
    notes.push('nothing names these tags: nothing changes');
  if (merges) notes.push(`"${to}" is already a tag: this merges into it`);
  for (const macro of macros) {
    if (macro.flagged)
      notes.push(`macro "${macro.name}" ${macro.reason ?? 'changes'}`);
  }
  for (const name of patterns) {
    notes.push(
      `search pattern "${name}" matches a renamed tag by its regular expression: review it`,
    );
  }
  return notes;
}
