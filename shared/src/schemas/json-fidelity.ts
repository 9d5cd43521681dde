/**
 * Whether a JSON text means exactly what `JSON.parse` makes of it. Three things do not survive the
 * parse, so a stored config read back would differ from what was sent: a number too large for a double
 * (`1e400` becomes `Infinity`, written back as `null`), an integer literal beyond ±2^53 that a double
 * cannot hold exactly (it is rounded: `12345678901234567890123` comes back as `1.2345678901234568e+22`;
 * `2^60` written out in full is exact and kept), and a key repeated in one
 * object (only the last value is kept). Spellings that only change the representation are faithful:
 * `1.0` is `1`, `-0` is `0`, `1E2` is `100`, `\u0061` is `a`.
 *
 * One linear pass over the text, which must already be valid JSON (parse it first); texts without
 * long numbers or repeated keys cost little more than reading them.
 */
import { runAtOnce, runInSlices } from '../util/slices.js';
import type { Sliced, SliceOptions } from '../util/slices.js';
import { formatPath } from './validate-config.js';

/** A spot where a JSON text is not faithful: its path (as {@link formatPath} writes it) and why. */
export interface JsonInfidelity {
  readonly path: string;
  readonly reason: string;
}

/**
 * One open object or array of the scan. Frames are reused by depth (a text with thousands of small
 * objects allocates a handful of frames), and an object's keys are compared in a short list until it has
 * many, then in a set: most objects of a config hold a few keys.
 */
interface Frame {
  isObject: boolean;
  /** In an array, the index of the current element. */
  index: number;
  /** In an object, the latest key (for the path of a finding). */
  key: string | undefined;
  /** The object's first keys (`count` of them are current). */
  readonly keys: string[];
  count: number;
  /** Every key of the object, once it has more than {@link LIST_KEYS}. */
  set: Set<string> | undefined;
}

/** Keys compared one by one before an object's keys go into a set. */
const LIST_KEYS = 8;

/** Number literal lengths below this are always finite and, without `.`/`e`, safe integers. */
const SHORT_NUMBER = 16;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/** Characters read between two points where the scan may pause ({@link findJsonInfidelityInSlices}). */
export const CHARS_PER_STEP = 64 * 1024;

/** What one scan of a JSON text tells. */
export interface JsonTextFacts {
  /** The first spot `JSON.parse` would not keep as written, or `undefined`. */
  readonly infidelity: JsonInfidelity | undefined;
  /**
   * How deeply objects and arrays nest (a top-level object or array is 1, a scalar 0), as
   * `nestedDeeper` would find on the parsed value; counted up to the infidelity when there is one.
   */
  readonly depth: number;
}

/** The first spot of `text` (valid JSON) that `JSON.parse` would not keep as written, or `undefined`. */
export function findJsonInfidelity(text: string): JsonInfidelity | undefined {
  return inspectJsonText(text).infidelity;
}

/** Scans `text` (valid JSON) once: its first infidelity and its nesting depth. */
export function inspectJsonText(text: string): JsonTextFacts {
  return runAtOnce(scanning(text));
}

/**
 * {@link inspectJsonText} in slices of about `options.sliceMs`, pausing between them with
 * `options.pause` (a large body does not hold a server's event loop); the same answer.
 */
export function inspectJsonTextInSlices(
  text: string,
  options: SliceOptions,
): Promise<JsonTextFacts> {
  return runInSlices(scanning(text), options);
}

/** Whether `key` was seen before in the object of `frame`; records it. */
function repeatedKey(frame: Frame, key: string): boolean {
  frame.key = key;
  if (frame.set !== undefined) {
    if (frame.set.has(key)) return true;
    frame.set.add(key);
    return false;
  }
  const { keys, count } = frame;
  for (let k = 0; k < count; k++) if (keys[k] === key) return true;
  if (count < LIST_KEYS) {
    keys[count] = key;
    frame.count = count + 1;
  } else {
    frame.set = new Set(keys);
    frame.set.add(key);
  }
  return false;
}

/** The scan, as a sliced computation (`util/slices.ts`): a plain loop per step, pausing between steps. */
function* scanning(text: string): Sliced<JsonTextFacts> {
  const scan = new Scan(text);
  for (;;) {
    const infidelity = scan.run(scan.at + CHARS_PER_STEP);
    if (infidelity !== undefined || scan.at >= text.length)
      return { infidelity, depth: scan.deepest };
    yield;
  }
}

/**
 * The scan's state between steps. Its loop is a method, not the generator's body: V8 runs a plain loop
 * markedly faster than one inside a generator.
 */
class Scan {
  readonly #text: string;
  readonly #frames: Frame[] = [];
  /** Open frames: `#frames[0 .. #depth)`. */
  #depth = 0;
  /** In an object, the next string is a key. */
  #expectKey = false;
  /** Where the scan stands in the text. */
  at = 0;
  /** The deepest nesting so far. */
  deepest = 0;

  constructor(text: string) {
    this.#text = text;
  }

  /** Scans on to about `until`; answers the first finding, `undefined` if none so far. */
  run(until: number): JsonInfidelity | undefined {
    const text = this.#text;
    const frames = this.#frames;
    const length = Math.min(until, text.length);
    let i = this.at;
    while (i < length) {
      const c = text.charCodeAt(i);
      if (c === QUOTE) {
        const end = stringEnd(text, i);
        if (this.#expectKey) {
          const raw = text.slice(i + 1, end);
          const key = raw.includes('\\')
            ? (JSON.parse(text.slice(i, end + 1)) as string)
            : raw;
          if (repeatedKey(frames[this.#depth - 1] as Frame, key))
            return this.#found('the key appears twice');
          this.#expectKey = false;
        }
        i = end + 1;
      } else if (c === 0x2d || (c >= 0x30 && c <= 0x39)) {
        let end = i + 1;
        let exponent = false;
        for (; end < text.length; end++) {
          const d = text.charCodeAt(end);
          if (d === 0x65 || d === 0x45) exponent = true;
          else if (!(
            (d >= 0x30 && d <= 0x39) ||
            d === 0x2e ||
            d === 0x2b ||
            d === 0x2d
          ))
            break;
        }
        if (exponent || end - i >= SHORT_NUMBER) {
          const reason = numberProblem(text.slice(i, end));
          if (reason !== undefined) return this.#found(reason);
        }
        i = end;
      } else {
        if (c === 0x7b) {
          this.#open(true);
          this.#expectKey = true;
        } else if (c === 0x5b) this.#open(false);
        else if (c === 0x7d || c === 0x5d) {
          this.#depth--;
          this.#expectKey = false;
        } else if (c === 0x2c) {
          const frame = frames[this.#depth - 1];
          if (frame !== undefined && !frame.isObject) frame.index++;
          else this.#expectKey = true;
        }
        i++;
      }
    }
    this.at = i;
    return undefined;
  }

  #open(isObject: boolean): void {
    const frame = this.#frames[this.#depth];
    if (frame === undefined) {
      this.#frames.push({
        isObject,
        index: 0,
        key: undefined,
        keys: [],
        count: 0,
        set: undefined,
      });
    } else {
      frame.isObject = isObject;
      frame.index = 0;
      frame.key = undefined;
      frame.count = 0;
      frame.set = undefined;
    }
    this.#depth++;
    if (this.#depth > this.deepest) this.deepest = this.#depth;
  }

  /** A finding at the current path. */
  #found(reason: string): JsonInfidelity {
    const path: PropertyKey[] = [];
    for (const frame of this.#frames.slice(0, this.#depth))
      if (!frame.isObject) path.push(frame.index);
      else if (frame.key !== undefined) path.push(frame.key);
    return {
      path: path.length === 0 ? '(the top level)' : formatPath(path),
      reason,
    };
  }
}

/** The index of the quote closing the string that opens at `start` (in valid JSON). */
export function stringEnd(text: string, start: number): number {
  let end = text.indexOf('"', start + 1);
  for (;;) {
    let backslashes = 0;
    while (text.charCodeAt(end - 1 - backslashes) === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return end;
    end = text.indexOf('"', end + 1);
  }
}

/** Why a number literal does not survive `JSON.parse`, or `undefined` when it does. */
function numberProblem(literal: string): string | undefined {
  const value = Number(literal);
  if (!Number.isFinite(value))
    return `the number ${abbreviate(literal)} is too large for a JSON number (a double)`;
  if (
    !/[.eE]/.test(literal) &&
    !Number.isSafeInteger(value) &&
    BigInt(literal) !== BigInt(value)
  )
    return `the integer ${abbreviate(literal)} is beyond ±2^53 and would lose precision (it would read back as ${value}); send it as a string`;
  return undefined;
}

const abbreviate = (literal: string): string =>
  literal.length > 40 ? `${literal.slice(0, 37)}...` : literal;
