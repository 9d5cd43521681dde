/**
 * Import planning: what the links a reader found do to a config. Pure; the same plan is the CLI's dry run,
 * the page's preview and what is finally written. Rules (docs/import-export.md):
 * - every URL is checked by {@link urlProblem} (the shared sanitizer first); refused links are reported
 *   with their position, never stored;
 * - a link whose URL the config (or the file, earlier) already has ({@link normalizeUrl}: the one rule of
 *   duplicates) is merged into that link: its new tags
 *   are added, a missing label or description is filled, nothing else changes; but two links of the
 *   file with one URL and two ids of their own stay two links;
 * - a new link keeps the id the file gave when it is usable and free, else gets a readable id from its
 *   label, made unique; ids never clash with ids already in the config;
 * - tags follow {@link TAG_RULE}, folders become tags the same way.
 */
import type {
  ImportCandidate,
  ImportMode,
  ImportReport,
  LinkConfig,
  ParsedImport,
  SkippedLink,
  SourcePosition,
} from '../schemas/index.js';
import { setOwn } from '../sync/own-keys.js';
import { isPlainObject } from '../util/is-plain-object.js';
import { urlProblem } from './check-url.js';
import { normalizeUrl } from '../links/url-identity.js';
import { FALLBACK_ID, idBase, isUsableId, uniqueId } from '../links/ids.js';
import { TAG_RULE, normalizeTag, normalizeTags } from '../links/tags.js';

/** Options of {@link planImport}. */
export interface PlanOptions {
  readonly mode: ImportMode;
  /** The config as stored now, or `null` for a new one. */
  readonly existing: LinkConfig | null;
  /** Whether bookmark folders become tags (default true). */
  readonly foldersAsTags?: boolean;
  /** Told now and then how many candidates are done (for a progress bar). */
  readonly onProgress?: (done: number, total: number) => void;
}

/** A plan: the config to write and the report of what it changes. */
export interface ImportPlan {
  readonly config: LinkConfig;
  readonly report: ImportReport;
}

type LinkRecord = Record<string, unknown>;

const stringTags = (link: LinkRecord): string[] =>
  Array.isArray(link['tags'])
    ? link['tags'].filter((tag): tag is string => typeof tag === 'string')
    : [];

/** The candidate's tags (and folders) by the tag rule, each once, in order; names left empty go to `dropped`. */
function tagsOf(
  candidate: ImportCandidate,
  foldersAsTags: boolean,
  dropped: Set<string>,
): string[] {
  const raw = foldersAsTags
    ? [...candidate.folders, ...candidate.tags]
    : candidate.tags;
  for (const name of raw)
    if (name.trim() !== '' && normalizeTag(name) === '')
      dropped.add(name.trim());
  return normalizeTags(raw);
}

/** A new link from a candidate: the fields the file gave, in the order the service documents. */
function newLink(candidate: ImportCandidate, tags: string[]): LinkRecord {
  return {
    url: candidate.url.trim(),
    ...(candidate.label === undefined ? {} : { label: candidate.label }),
    ...(tags.length > 0 ? { tags } : {}),
    ...(candidate.description === undefined
      ? {}
      : { description: candidate.description }),
    ...candidate.extra,
    ...(candidate.meta === undefined ? {} : { meta: candidate.meta }),
  };
}

/** `link` with `tags` added and a missing label or description filled; the same object if nothing changes. */
function mergeInto(
  link: LinkRecord,
  candidate: ImportCandidate,
  tags: string[],
): LinkRecord {
  const have = stringTags(link);
  const extra = tags.filter((tag) => !have.includes(tag));
  const label = link['label'] === undefined ? candidate.label : undefined;
  const description =
    link['description'] === undefined ? candidate.description : undefined;
  if (extra.length === 0 && label === undefined && description === undefined) {
    return link;
  }
  return {
    ...link,
    ...(label === undefined ? {} : { label }),
    ...(extra.length === 0 ? {} : { tags: [...have, ...extra] }),
    ...(description === undefined ? {} : { description }),
  };
}

/** Sections of a JSON import joined to the config: `replace` takes the file's, `merge` adds missing entries. */
function joinSections(
  config: LinkRecord,
  sections: Record<string, unknown> | undefined,
  mode: ImportMode,
): void {
  for (const [key, value] of Object.entries(sections ?? {})) {
    const current = config[key];
    if (mode === 'replace' || current === undefined) config[key] = value;
    else if (isPlainObject(current) && isPlainObject(value)) {
      config[key] = { ...value, ...current };
    }
  }
}

/** Orders what the report lists by where the file has it. */
const byPosition = (
  a: { position: SourcePosition },
  b: { position: SourcePosition },
): number =>
  a.position.line - b.position.line ||
  (a.position.column ?? 0) - (b.position.column ?? 0);

/** Plans an import of `parsed` into `options.existing` (see the module's rules). */
export function planImport(
  parsed: ParsedImport,
  options: PlanOptions,
): ImportPlan {
  const { mode, existing } = options;
  const foldersAsTags = options.foldersAsTags ?? true;
  const before: Record<string, unknown> = isPlainObject(existing?.allLinks)
    ? existing.allLinks
    : {};
  const knownTags = new Set<string>();
  const byUrl = new Map<string, string>();
  for (const [id, link] of Object.entries(before)) {
    if (!isPlainObject(link)) continue;
    for (const tag of stringTags(link)) knownTags.add(tag);
    if (typeof link['url'] === 'string') {
      const key = normalizeUrl(link['url']);
      if (!byUrl.has(key)) byUrl.set(key, id);
    }
  }
  const links: Record<string, unknown> = mode === 'merge' ? { ...before } : {};
  const taken = new Set(Object.keys(links));
  /** In `replace` mode a URL that was stored keeps its id, so expressions naming it still work. */
  const previousIds = mode === 'replace' ? byUrl : new Map<string, string>();
  const matches = mode === 'merge' ? byUrl : new Map<string, string>();
  const added: string[] = [];
  const merged: ImportReport['merged'] = [];
  const skipped: SkippedLink[] = [...parsed.skipped];
  const tagsCreated = new Set<string>();
  const tagsDropped = new Set<string>();
  const notes = [...(parsed.notes ?? [])];
  /** Ids this import adds. */
  const addedIds = new Set<string>();
  /** Links this import added under the id the file gave them. */
  const ownIds = new Set<string>();
  const total = parsed.candidates.length;
  parsed.candidates.forEach((candidate, index) => {
    if (index % 1000 === 0) options.onProgress?.(index, total);
    const problem = urlProblem(candidate.url);
    if (problem !== null) {
      skipped.push({
        position: candidate.position,
        url: candidate.url,
        reason: problem,
      });
      return;
    }
    const tags = tagsOf(candidate, foldersAsTags, tagsDropped);
    for (const tag of tags) if (!knownTags.has(tag)) tagsCreated.add(tag);
    const key = normalizeUrl(candidate.url);
    const same = matches.get(key);
    const sameLink = same === undefined ? undefined : links[same];
    // Two links of the file with one URL and two ids of their own stay two links, as in the config
    // the file was exported from.
    const apart =
      same !== undefined &&
      ownIds.has(same) &&
      candidate.id !== undefined &&
      candidate.id !== same;
    if (same !== undefined && isPlainObject(sameLink) && !apart) {
      setOwn(links, same, mergeInto(sameLink, candidate, tags));
      merged.push(
        addedIds.has(same)
          ? { id: same, url: candidate.url, inFile: true }
          : { id: same, url: candidate.url },
      );
      return;
    }
    const wanted = [candidate.id, previousIds.get(key)].find(
      (id): id is string =>
        id !== undefined && isUsableId(id) && !taken.has(id),
    );
    const base =
      wanted === undefined ? idBase(candidate.label ?? candidate.url) : wanted;
    const id = uniqueId(base, taken);
    if (wanted === undefined && base === FALLBACK_ID)
      notes.push({
        position: candidate.position,
        url: candidate.url,
        note: `its title gives no letter a-z or digit for an id, so it is named “${id}”`,
      });
    setOwn(links, id, newLink(candidate, tags));
    if (!apart) matches.set(key, id);
    if (id === candidate.id) ownIds.add(id);
    added.push(id);
    addedIds.add(id);
  });
  options.onProgress?.(total, total);
  const config: LinkRecord =
    existing === null ? { allLinks: links } : { ...existing, allLinks: links };
  joinSections(config, parsed.sections, mode);
  return {
    config: config as LinkConfig,
    report: {
      format: parsed.format,
      mode,
      added,
      merged,
      skipped: skipped.sort(byPosition),
      notes: notes.sort(byPosition),
      tagsCreated: [...tagsCreated],
      tagRule: TAG_RULE,
      ...(tagsDropped.size > 0 ? { tagsDropped: [...tagsDropped] } : {}),
    },
  };
}
