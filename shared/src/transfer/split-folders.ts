/**
 * A config per top folder (an option of bookmark imports): the links of each outermost folder become an
 * import of their own, the folder now the config rather than a tag; links outside every folder stay in
 * the group named `''`.
 */
import type { ParsedImport } from '../schemas/index.js';
import { idBase, uniqueId } from '../links/ids.js';

/** One part of a split import: the folder it came from and a name suffix made from it (`''` for none). */
export interface FolderImport {
  readonly folder: string;
  readonly suffix: string;
  readonly parsed: ParsedImport;
}

/** Splits `parsed` by top folder, in the order folders first appear; skipped links and notes stay with the first part. */
export function splitByTopFolder(parsed: ParsedImport): FolderImport[] {
  const groups = new Map<string, FolderImport>();
  const suffixes = new Set<string>();
  for (const candidate of parsed.candidates) {
    const [top = '', ...inner] = candidate.folders;
    let group = groups.get(top);
    if (group === undefined) {
      const suffix = uniqueId(top === '' ? '' : idBase(top), suffixes);
      group = {
        folder: top,
        suffix,
        parsed: { format: parsed.format, candidates: [], skipped: [] },
      };
      groups.set(top, group);
    }
    group.parsed.candidates.push({ ...candidate, folders: inner });
  }
  const parts = [...groups.values()];
  const first = parts[0];
  if (first === undefined) return [{ folder: '', suffix: '', parsed }];
  first.parsed.skipped.push(...parsed.skipped);
  if (parsed.notes !== undefined) first.parsed.notes = [...parsed.notes];
  return parts;
}
