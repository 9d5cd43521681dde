/**
 * How a revision's content is kept so that history costs little whatever the config's size: a revision is
 * either a keyframe (the whole JSON text, deflated) or a delta against the revision just before it (how
 * many UTF-16 units of the previous text are kept at its start and at its end, and the text between them).
 * A one-link edit of a large config is then a few hundred bytes. A chain of deltas starts at a keyframe
 * (`base`); a new keyframe is written when the deltas since the last one outweigh a quarter of the text (a
 * keyframe's usual deflated size) or the chain reaches {@link MAX_CHAIN} revisions, so reading any revision
 * replays a bounded chain ({@link ChainReader}). Pure functions: every adapter stores these fields as they are.
 */
import { constants as bufferConstants } from 'node:buffer';
import { promisify } from 'node:util';
import { deflateRawSync, inflateRaw, inflateRawSync } from 'node:zlib';
import { commonHead, commonTail } from '@linkconfig/shared';

/**
 * Stored content that cannot be read back: a keyframe that is not deflated data or inflates past the
 * reader's limit, a delta whose kept start and end do not fit the text before it, a chain without its
 * keyframe. A reader fails with this rather than build a wrong text.
 */
export class RevisionContentError extends Error {
  override readonly name = 'RevisionContentError';
}

/**
 * The default limit of a {@link ChainReader}: the longest string the runtime can make. The server's own
 * history reads use it (it rebuilds only what it wrote itself); a reader of untrusted content, such as the
 * check of a backup file, gives a limit of its own (`BODY_LIMIT`).
 */
export const MAX_TEXT = bufferConstants.MAX_STRING_LENGTH;

/**
 * Most revisions in one chain (keyframe included): bounds the work of reading one revision. Chosen from
 * `npm run bench:history`: with one-link edits a keyframe (~28 KB deflated for 120 KB of text) is most of
 * what a chain costs, so 500 rather than 250 halves that share (PostgreSQL: 2.16× → 1.69× the config per
 * 1,000 edits) while a full chain still replays in a few ms. Only writing uses it: a stored chain of any
 * length reads back.
 */
export const MAX_CHAIN = 500;

/** A revision's stored content. */
export interface RevisionContent {
  /** The revision of the chain's keyframe (this revision's own number when it is a keyframe). */
  readonly base: number;
  /** Delta: UTF-16 units of the previous text kept at its start; keyframe: 0. */
  readonly head: number;
  /** Delta: UTF-16 units of the previous text kept at its end; keyframe: 0. */
  readonly tail: number;
  /** Delta: the new text between head and tail (UTF-8); keyframe: the whole text, deflated. */
  readonly data: Uint8Array;
  /** Bytes of delta data since the keyframe, this one included (0 for a keyframe). */
  readonly chain: number;
}

/**
 * Two texts and how many UTF-16 units they share at their start (`commonHead` up to the shorter length),
 * then at their end (`commonTail` of what is left).
 */
export interface TextCut {
  readonly from: string;
  readonly to: string;
  readonly head: number;
  readonly tail: number;
}

/** What a write knows of the revision before it (`null`: no revision, or it has no content). */
export interface PreviousContent {
  readonly rev: number;
  readonly json: string;
  readonly base: number;
  readonly chain: number;
  /**
   * The cut of `json` and the text written, when the writer found it already (a PUT read as an edit):
   * taken only when its texts are these two.
   */
  readonly cut?: TextCut | undefined;
}

const isHigh = (code: number): boolean => code >= 0xd800 && code <= 0xdbff;
const isLow = (code: number): boolean => code >= 0xdc00 && code <= 0xdfff;

/** The whole text as a keyframe of revision `rev`. */
export function keyframe(rev: number, json: string): RevisionContent {
  return {
    base: rev,
    head: 0,
    tail: 0,
    data: deflateRawSync(Buffer.from(json, 'utf8')),
    chain: 0,
  };
}

/**
 * The content of revision `rev` holding `json`: a delta against `previous` when it is the revision just
 * before and the chain has room, else a keyframe. Cut points never split a surrogate pair, so the middle
 * survives UTF-8.
 */
export function encodeRevision(
  rev: number,
  json: string,
  previous: PreviousContent | null,
): RevisionContent {
  if (previous === null || previous.rev !== rev - 1) return keyframe(rev, json);
  if (rev - previous.base + 1 > MAX_CHAIN) return keyframe(rev, json);
  const old = previous.json;
  const max = Math.min(old.length, json.length);
  const known = previous.cut;
  const cut =
    known !== undefined && known.from === old && known.to === json
      ? known
      : undefined;
  let head = cut?.head ?? commonHead(old, json, max);
  if (head > 0 && head < json.length && isHigh(json.charCodeAt(head - 1))) {
    head--;
  }
  let tail =
    cut !== undefined && head === cut.head
      ? cut.tail
      : commonTail(old, json, max - head);
  if (tail > 0 && isLow(json.charCodeAt(json.length - tail))) tail--;
  const data = Buffer.from(json.slice(head, json.length - tail), 'utf8');
  const chain = previous.chain + data.length;
  if (chain > json.length / 4) return keyframe(rev, json);
  return { base: previous.base, head, tail, data, chain };
}

/** Size of the blocks a text is rebuilt in: a delta rewrites the one or two blocks it touches. */
const BLOCK = 4096;

/** `text` in blocks of about {@link BLOCK} units (never empty: an empty text is one empty block). */
function blocksOf(text: string): string[] {
  if (text.length <= 2 * BLOCK) return [text];
  const out: string[] = [];
  for (let at = 0; at < text.length; at += BLOCK) {
    out.push(text.slice(at, at + BLOCK));
  }
  return out;
}

/** The error of a keyframe that does not inflate within `maxBytes`. */
function keyframeError(error: unknown, maxBytes: number): RevisionContentError {
  const code = (error as { code?: unknown } | null)?.code;
  return new RevisionContentError(
    code === 'ERR_BUFFER_TOO_LARGE'
      ? `a keyframe inflates to more than the limit of ${maxBytes} bytes`
      : 'a keyframe is not deflated data',
  );
}

/** The text of a keyframe, at most `maxBytes` bytes of UTF-8 once inflated. */
function inflateKeyframe(data: Uint8Array, maxBytes: number): string {
  try {
    return Buffer.from(
      inflateRawSync(data, { maxOutputLength: Math.max(1, maxBytes) }),
    ).toString('utf8');
  } catch (error) {
    throw keyframeError(error, maxBytes);
  }
}

const inflating = promisify(inflateRaw);

/**
 * The text of a keyframe, inflated off the event loop (zlib's thread pool): what a reader of a large
 * config's revisions gives {@link ChainReader.start} instead of inflating it at once. At most `maxBytes`
 * bytes of UTF-8 (default {@link MAX_TEXT}).
 */
export async function keyframeText(
  data: Uint8Array,
  maxBytes: number = MAX_TEXT,
): Promise<string> {
  try {
    const bytes = await inflating(data, {
      maxOutputLength: Math.max(1, maxBytes),
    });
    return Buffer.from(bytes).toString('utf8');
  } catch (error) {
    throw keyframeError(error, maxBytes);
  }
}

const isCount = (n: number): boolean => Number.isSafeInteger(n) && n >= 0;

/**
 * Rebuilds texts along a chain: give it a keyframe, then each delta after it in order; `text()` is the text
 * of the last one given. The text is kept in blocks, so a delta costs the blocks it touches (a few KB),
 * not the size of the text: replaying a full chain ({@link MAX_CHAIN} deltas) of a 120 KB config takes a few ms.
 * Content that does not fit (see {@link RevisionContentError}) throws and leaves the reader as it was.
 */
export class ChainReader {
  #blocks: string[] = [''];
  #length = 0;
  #started = false;
  readonly #maxBytes: number;

  /**
   * `maxBytes`: the longest text the chain may hold, in bytes of UTF-8 for a keyframe and in UTF-16 units
   * (never more than its bytes) after a delta.
   */
  constructor(maxBytes: number = MAX_TEXT) {
    this.#maxBytes = maxBytes;
  }

  /** Applies the next revision of the chain (a keyframe starts it afresh). */
  apply(content: RevisionContent, rev: number): void {
    if (content.base === rev) {
      this.start(inflateKeyframe(content.data, this.#maxBytes));
      return;
    }
    if (!this.#started) {
      throw new RevisionContentError(
        'a revision chain starts with its keyframe',
      );
    }
    const head = content.head;
    const tail = content.tail;
    if (!isCount(head) || !isCount(tail) || head + tail > this.#length) {
      throw new RevisionContentError(
        `a change keeps ${head} units at the start and ${tail} at the end of a text of ${this.#length}`,
      );
    }
    if (content.data.length > this.#maxBytes - head - tail) {
      throw new RevisionContentError(
        `a change makes the text longer than the limit of ${this.#maxBytes} bytes`,
      );
    }
    const middle = Buffer.from(content.data).toString('utf8');
    const blocks = this.#blocks;
    const end = this.#length - tail;
    // The block holding position `head`, and the one holding `end` (where the kept tail starts).
    let i = 0;
    let start = 0;
    while (i < blocks.length - 1 && start + (blocks[i]?.length ?? 0) <= head) {
      start += blocks[i]?.length ?? 0;
      i++;
    }
    let j = i;
    let startJ = start;
    while (j < blocks.length - 1 && startJ + (blocks[j]?.length ?? 0) < end) {
      startJ += blocks[j]?.length ?? 0;
      j++;
    }
    const merged =
      (blocks[i] ?? '').slice(0, head - start) +
      middle +
      (blocks[j] ?? '').slice(end - startJ);
    blocks.splice(i, j - i + 1, ...blocksOf(merged));
    this.#length = head + middle.length + tail;
  }

  /** Starts the chain afresh at a keyframe's text, inflated already ({@link keyframeText}). */
  start(whole: string): void {
    this.#blocks = blocksOf(whole);
    this.#length = whole.length;
    this.#started = true;
  }

  /** The text of the last revision applied. */
  text(): string {
    return this.#blocks.length === 1
      ? (this.#blocks[0] ?? '')
      : this.#blocks.join('');
  }
}
