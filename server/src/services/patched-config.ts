import {
  LIMITS,
  findLinkSpans,
  jsonText,
  mergePatching,
  patchLinksText,
  validatingLinkConfig,
} from '@linkconfig/shared';
import type { LinkSpans, Sliced, TextPatchCounts } from '@linkconfig/shared';
import { TEXT_PATCH_MAX_CHARS } from '../event-loop.js';
import type { StoredConfig } from '../storage/config-repository.js';
import { ConfigVersion } from '../versions/config-version.js';

/**
 * A change of a stored config: its next value worked out from the stored one (which it must not
 * modify), in steps that may pause (`util/slices.ts`): a merge patch (`mergePatching`), a restore of
 * some links.
 */
export type Change = ((stored: JsonObject) => Sliced<unknown>) & {
  /** The same change worked out on a version's text, when it can be (tried first). */
  readonly text?: TextChange;
};

/** A parsed stored config. */
export type JsonObject = Record<string, unknown>;

/** What a change makes of a stored config: the next text (with its value or its links' places), or why not. */
export type Applied =
  | {
      ok: true;
      json: string;
      /** The next value, when the change worked it out. */
      next?: Record<string, unknown>;
      /** Where the next text's links sit, when the change was made on the text. */
      spans?: LinkSpans;
      /** What a change made on the text did to the links (the revision's summary). */
      counts?: TextPatchCounts;
    }
  | { ok: false; error: string };

/**
 * The same change worked out on a version's text instead of its parsed value, when it can be
 * (`patchLinksText`: a patch of some links); `undefined` otherwise.
 */
export type TextChange = (version: ConfigVersion) => Applied | undefined;

/**
 * A change applied to a stored config, the result checked as a stored config (its depth too: no text
 * scan told it) and written out as JSON: steps that may pause between members.
 */
export function* changing(
  stored: Record<string, unknown>,
  change: Change,
): Sliced<Applied> {
  const next = yield* change(stored);
  const checked = yield* validatingLinkConfig(next, {
    maxDepth: LIMITS.nestingMax,
  });
  if (!checked.ok) return { ok: false, error: checked.error };
  return {
    ok: true,
    next: next as Record<string, unknown>,
    json: yield* jsonText(next),
  };
}

/** A JSON Merge Patch as a change, with its text form for a patch of some links (it costs those links). */
export function patching(patch: unknown): Change {
  return Object.assign((stored: JsonObject) => mergePatching(stored, patch), {
    text: (version: ConfigVersion) => patchedText(version, patch),
  });
}

/** Where a version's links sit in its text, kept with the version (`ConfigVersion.derive`). */
const LINK_SPANS = Symbol('link spans');

/** Bytes a version's link spans keep alive, per link (two offsets and a share of the key map) and fixed. */
const SPAN_BYTES = { perLink: 96, fixed: 256 } as const;

/** What a version's link spans weigh (see {@link SPAN_BYTES}). */
export const spansWeight = (spans: LinkSpans | undefined): number =>
  SPAN_BYTES.fixed + (spans?.starts.length ?? 0) * SPAN_BYTES.perLink;

/**
 * `patch` applied to the text of `version` (`patchLinksText`), when the version still holds its text, the
 * text is smaller than {@link TEXT_PATCH_MAX_CHARS} (its one-time scan runs at once) and canonical (what
 * `JSON.stringify` writes for its value: then the answer is the full computation's, byte for byte).
 * The scan, and whether the text is canonical, are worked out once per version and kept with it.
 */
export function patchedText(
  version: ConfigVersion,
  patch: unknown,
): Applied | undefined {
  const held = version.heldText;
  if (held === undefined || held.json.length >= TEXT_PATCH_MAX_CHARS)
    return undefined;
  const spans = version.derive(LINK_SPANS, () => {
    const json = held.json;
    const found =
      JSON.stringify(JSON.parse(json)) === json
        ? findLinkSpans(json)
        : undefined;
    return { value: found, weight: spansWeight(found) };
  });
  if (spans === undefined) return undefined;
  const patched = patchLinksText(
    { text: held.json, spans },
    patch,
    LIMITS.nestingMax,
  );
  return patched === undefined ? undefined : { ok: true, ...patched };
}

/** Keeps with a version made by {@link patchedText} where its links sit, so the next patch skips the scan. */
export function keepSpans(version: ConfigVersion, spans: LinkSpans): void {
  version.derive(LINK_SPANS, () => ({
    value: spans,
    weight: spansWeight(spans),
  }));
}

/**
 * Per name, the text a text change decided in a write not committed yet, with where its links sit: a
 * later write of the name in the same write group (which finds that text under its lock before the
 * first write's version is cached) reads the links' places here instead of scanning the text again. An
 * entry lives while its write does.
 */
export class DecidedTexts {
  readonly #byName = new Map<
    string,
    { readonly json: string; readonly spans: LinkSpans }
  >();

  /** Records what a write decided; answers what forgets it once the write is over. */
  record(name: string, applied: Applied): () => void {
    if (!applied.ok || applied.spans === undefined) return () => undefined;
    const entry = { json: applied.json, spans: applied.spans };
    this.#byName.set(name, entry);
    return () => {
      if (this.#byName.get(name) === entry) this.#byName.delete(name);
    };
  }

  /**
   * A version of `current` (a write found it under its lock, not cached), with where its links sit when
   * a write in flight decided exactly its text.
   */
  versionOf(current: StoredConfig): ConfigVersion {
    const version = new ConfigVersion(current);
    const entry = this.#byName.get(current.name);
    if (entry?.json === current.json) keepSpans(version, entry.spans);
    return version;
  }
}
