/**
 * A config's whole new text (a PUT) read as an edit of the stored text it follows: when the two differ only
 * within a run of consecutive links of `allLinks`, only that run is parsed and checked, and the revision's
 * counts are taken from it. The stored text must be one the config check accepted (a version this server
 * wrote) and where its links sit must be known (`findLinkSpans`); the rest of the new text is then the
 * same characters in the same place, so it parses, reads back and passes the check as it did. Anything
 * else (a change outside the links, of the first key before them, a long run, a refusal, text that needs a
 * closer look: `__proto__`, `prototype`, `\u` escapes) is left to the full computation: parse the whole
 * text, scan it (`json-fidelity.ts`), check it (`validateLinkConfig`) and diff it (`config-diff.ts`).
 */
import { CHARS_PER_STEP, inspectJsonText } from '../schemas/json-fidelity.js';
import { isStoredLinkEntry } from '../schemas/validate-config.js';
import { commonHead, commonTail } from '../util/common-ends.js';
import { isPlainObject } from '../util/is-plain-object.js';
import { sameValue } from '../util/same-value.js';
import { readMembers } from './link-text-patch.js';
import type { LinkSpans, TextPatchCounts } from './link-text-patch.js';

/**
 * A stored text the config check accepted, and where its links sit (read only when the texts differ in
 * fewer than {@link EDIT_MAX_CHARS} characters: a getter may find them then).
 */
export interface LinkTextTemplate {
  readonly text: string;
  readonly spans: LinkSpans;
}

/** What a new text read as an edit of a template is: where its links sit, and the revision's counts. */
export interface LinkTextEdit {
  readonly spans: LinkSpans;
  readonly counts: TextPatchCounts;
  /**
   * How many UTF-16 units both texts share at their start (`commonHead` up to the shorter length) and then
   * at their end (`commonTail` of what is left): the cut the history's delta makes too.
   */
  readonly cut: { readonly head: number; readonly tail: number };
}

/**
 * The longest run of changed text read as an edit: it is parsed and scanned at once, so it stays within
 * one step of the sliced scan.
 */
export const EDIT_MAX_CHARS = CHARS_PER_STEP;

/** Texts that the full computation looks at more closely (prototype keys, escapes that could spell them). */
const CLOSER_LOOK = /__proto__|prototype|\\u/;

/** One member of a run of links, its value's span in the run's own text. */
interface Member {
  readonly key: string;
  readonly start: number;
  readonly end: number;
}

/**
 * `next` read as an edit of `template`: defined only when `next` is valid JSON that reads back as sent,
 * nests within `maxDepth`, passes the config check, and differs from the template's text within a run of
 * consecutive links (each changed or added link passing the check for a link, `isStoredLinkEntry`); then
 * its counts are what the one diff counts between both values (`summarizeDiff`, `countLinks`).
 */
export function linkEditOfText(
  template: LinkTextTemplate,
  next: string,
  maxDepth: number,
): LinkTextEdit | undefined {
  const old = template.text;
  if (next === old) {
    const { spans } = template;
    const links = spans.starts.length;
    return {
      spans,
      counts: { added: 0, removed: 0, changed: 0, links },
      cut: { head: old.length, tail: 0 },
    };
  }
  const max = Math.min(old.length, next.length);
  const head = commonHead(old, next, max);
  const tail = commonTail(old, next, max - head);
  // What differs lies within the run: when that is already too long, the links' places are not needed.
  if (Math.max(old.length, next.length) - head - tail > EDIT_MAX_CHARS)
    return undefined;
  const { spans } = template;
  const count = spans.starts.length;
  // The run of links i..j whose values, and what lies between them, hold every changed character.
  const i = lastAtOrBefore(spans.starts, head);
  const j = firstAtOrAfter(spans.ends, old.length - tail);
  if (i < 0 || j >= count || j < i) return undefined;
  const from = spans.starts[i] ?? 0;
  const to = spans.ends[j] ?? 0;
  const shift = next.length - old.length;
  const run = next.slice(from, to + shift);
  if (run.length > EDIT_MAX_CHARS || CLOSER_LOOK.test(run)) return undefined;
  const first = keyAt(spans.order, i);
  if (first === undefined) return undefined;
  const opening = `{${JSON.stringify(first)}:`;
  const now = readRun(`${opening}${run}}`);
  if (now === undefined) return undefined;
  for (const member of now.members) {
    const at = spans.order.get(member.key);
    // A key of a link outside the run would be there twice.
    if (at !== undefined && (at < i || at > j)) return undefined;
    if (!isStoredLinkEntry(now.value[member.key], maxDepth)) return undefined;
  }
  const before = `${opening}${old.slice(from, to)}}`;
  const counts = countsOf({ before, after: now.text }, now, count);
  const moved = from - opening.length;
  return {
    spans: spansAfter(
      spans,
      { i, j, shift },
      {
        members: now.members,
        moved,
      },
    ),
    counts,
    cut: { head, tail },
  };
}

/** A run of links wrapped as an object: parsed, read back as sent, its members in text order. */
function readRun(
  text: string,
):
  | { text: string; value: Record<string, unknown>; members: Member[] }
  | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!isPlainObject(value)) return undefined;
  if (inspectJsonText(text).infidelity !== undefined) return undefined;
  const members: Member[] = [];
  readMembers(text, 0, (key, start, end) => members.push({ key, start, end }));
  return { text, value, members };
}

/** The diff's counts between the run as it was (`texts.before`) and as it is now. */
function countsOf(
  texts: { readonly before: string; readonly after: string },
  now: { readonly value: Record<string, unknown>; readonly members: Member[] },
  count: number,
): TextPatchCounts {
  const was = new Map<string, Member>();
  readMembers(texts.before, 0, (key, start, end) =>
    was.set(key, { key, start, end }),
  );
  let added = 0;
  let changed = 0;
  let kept = 0;
  for (const member of now.members) {
    const old = was.get(member.key);
    if (old === undefined) {
      added++;
      continue;
    }
    kept++;
    const oldText = texts.before.slice(old.start, old.end);
    if (oldText === texts.after.slice(member.start, member.end)) continue;
    if (!sameValue(JSON.parse(oldText), now.value[member.key])) changed++;
  }
  const removed = was.size - kept;
  return { added, removed, changed, links: count - removed + added };
}

/** The spans of the new text: links before the run as they were, the run's own, the rest moved. */
function spansAfter(
  spans: LinkSpans,
  run: { readonly i: number; readonly j: number; readonly shift: number },
  now: { readonly members: readonly Member[]; readonly moved: number },
): LinkSpans {
  const { i, j, shift } = run;
  const { members, moved } = now;
  const count = spans.starts.length - (j - i + 1) + members.length;
  const starts = new Int32Array(count);
  const ends = new Int32Array(count);
  starts.set(spans.starts.subarray(0, i));
  ends.set(spans.ends.subarray(0, i));
  members.forEach((member, k) => {
    starts[i + k] = member.start + moved;
    ends[i + k] = member.end + moved;
  });
  const after = i + members.length;
  for (let k = j + 1; k < spans.starts.length; k++) {
    starts[after + k - j - 1] = (spans.starts[k] ?? 0) + shift;
    ends[after + k - j - 1] = (spans.ends[k] ?? 0) + shift;
  }
  return { order: orderAfter(spans.order, { i, j }, members), starts, ends };
}

/** The keys' places after the run `i..j` became `members`: the same map when the keys did not change. */
function orderAfter(
  order: ReadonlyMap<string, number>,
  { i, j }: { readonly i: number; readonly j: number },
  members: readonly Member[],
): ReadonlyMap<string, number> {
  if (
    members.length === j - i + 1 &&
    members.every((member, k) => order.get(member.key) === i + k)
  ) {
    return order;
  }
  const next = new Map<string, number>();
  const entries = [...order].sort((a, b) => a[1] - b[1]);
  for (const [key, at] of entries) {
    if (at < i) next.set(key, at);
    else if (at === i)
      members.forEach((member, k) => next.set(member.key, i + k));
    else if (at > j) next.set(key, at - (j - i + 1) + members.length);
  }
  return next;
}

/** The key at place `at`, or `undefined`. */
function keyAt(
  order: ReadonlyMap<string, number>,
  at: number,
): string | undefined {
  for (const [key, place] of order) if (place === at) return key;
  return undefined;
}

/** The last index whose value is at most `limit` (values ascending), or -1. */
function lastAtOrBefore(values: Int32Array, limit: number): number {
  let low = 0;
  let high = values.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if ((values[mid] ?? 0) <= limit) low = mid + 1;
    else high = mid;
  }
  return low - 1;
}

/** The first index whose value is at least `limit` (values ascending), or `values.length`. */
function firstAtOrAfter(values: Int32Array, limit: number): number {
  let low = 0;
  let high = values.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if ((values[mid] ?? 0) < limit) low = mid + 1;
    else high = mid;
  }
  return low;
}
