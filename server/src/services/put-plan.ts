/**
 * What a PUT stores and records before it writes: the text, the revision's summary against the version
 * held, and what the new version keeps. A body the reader could read as an edit of the version held
 * (`ReceivedJson.edit`, `linkEditOfText`) was checked on the links it changes and counted from them; any
 * other is checked whole (`validateLinkConfig`) and diffed against the version held (`summaryOver`).
 */
import {
  LIMITS,
  findLinkSpans,
  isPlainObject,
  validateLinkConfig,
} from '@linkconfig/shared';
import type { LinkSpans, SliceOptions } from '@linkconfig/shared';
import { DomainError } from '../errors.js';
import { TEXT_PATCH_MAX_CHARS } from '../event-loop.js';
import { ReceivedJson } from '../received-json.js';
import type { EditTemplate } from '../received-json.js';
import type { SummaryOver } from '../storage/config-repository.js';
import type { TextCut } from '../storage/log/revision-content.js';
import type { StoredText } from '../storage/stored-text.js';
import type { ConfigVersion } from '../versions/config-version.js';
import { spansWeight } from './patched-config.js';
import { summaryOver } from './revision-summary.js';

/** Where a written version's links sit in its text, kept with it (`ConfigVersion.derive`). */
const EDIT_SPANS = Symbol('edit spans');

/**
 * The text a PUT of the name of `version` may be read against: only a version this server wrote (the
 * config check accepted it) that still holds its text, under {@link TEXT_PATCH_MAX_CHARS} (the scan for its
 * links runs at once, once per version, only when a body differs from it in a short run, and is kept).
 */
export function editTemplate(
  version: ConfigVersion | undefined,
): EditTemplate | undefined {
  if (version === undefined || !version.madeByWrite) return undefined;
  const held = version.heldText;
  if (held === undefined || held.json.length >= TEXT_PATCH_MAX_CHARS)
    return undefined;
  return {
    version: version.version,
    text: held.json,
    // Found on first use (a body that differs from the text in a short run only), once per version.
    get spans(): LinkSpans {
      return version.derive(EDIT_SPANS, () => {
        const found = findLinkSpans(held.json) ?? NO_LINKS;
        return { value: found, weight: spansWeight(found) };
      });
    },
    maxDepth: LIMITS.nestingMax,
  };
}

/** The places of a text without an `allLinks` object (no version this server wrote): no edit applies. */
const NO_LINKS: LinkSpans = {
  order: new Map(),
  starts: new Int32Array(0),
  ends: new Int32Array(0),
};

/** What a PUT stores ({@link planPut}). */
export interface PutPlan {
  /** The text, with the body's bytes when it is the body as received (`ReceivedJson.stored`). */
  readonly json: StoredText;
  readonly summary: SummaryOver;
  /** The value, when it was parsed (a large config's version keeps it). */
  readonly parsed?: Record<string, unknown> | undefined;
  /** Where the text's links sit, when known (the next PUT's template skips its scan). */
  readonly spans?: LinkSpans | undefined;
  /** Where the text differs from the version it was read against (the history's delta takes it). */
  readonly cut?: TextCut | undefined;
}

/**
 * What a PUT of `config` over the version `held` stores, checked (`invalid_config` otherwise): a body read
 * as an edit of a stored version as it came, with the edit's counts; any other checked whole (its depth
 * from the reader's scan when known) and diffed against `held` in slices.
 */
export async function planPut(
  config: ReceivedJson | unknown,
  held: ConfigVersion | undefined,
  slices: SliceOptions,
): Promise<PutPlan> {
  const received = config instanceof ReceivedJson ? config : undefined;
  const edit = received?.edit;
  if (received !== undefined && edit !== undefined) {
    return {
      json: received.stored,
      summary: { over: edit.template.version, summary: edit.edit.counts },
      spans: edit.edit.spans,
      cut: { from: edit.template.text, to: received.text, ...edit.edit.cut },
    };
  }
  const value: unknown = received === undefined ? config : received.value;
  // One pass over the config: the stored-config rules and the nesting bound (the HTTP layer leaves the
  // depth of a config body to this check rather than walking it twice).
  const checked = validateLinkConfig(
    value,
    received?.depth === undefined
      ? { maxDepth: LIMITS.nestingMax }
      : { maxDepth: LIMITS.nestingMax, depth: received.depth },
  );
  if (!checked.ok) throw new DomainError('invalid_config', checked.error);
  return {
    json: received?.stored ?? JSON.stringify(checked.config),
    // What it changes against the version held (none held: as a new config; the write keeps it only
    // when that is what it replaces).
    summary: await summaryOver(held ?? null, value, slices),
    // The body's value is the text parsed (it reads back as sent).
    parsed: received !== undefined && isPlainObject(value) ? value : undefined,
  };
}

/** Keeps with a version a PUT wrote where its links sit, so the next PUT's template skips the scan. */
export function keepEditSpans(version: ConfigVersion, spans: LinkSpans): void {
  version.derive(EDIT_SPANS, () => ({
    value: spans,
    weight: spansWeight(spans),
  }));
}
