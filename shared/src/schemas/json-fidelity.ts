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

type Frame =
  | { readonly kind: 'object'; keys: Set<string>; key: string | undefined }
  | { readonly kind: 'array'; index: number };

/** Number literal lengths below this are always finite and, without `.`/`e`, safe integers. */
const SHORT_NUMBER = 16;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/** Characters read between two points where the scan may pause ({@link findJsonInfidelityInSlices}). */
export const CHARS_PER_STEP = 64 * 1024;

/** The first spot of `text` (valid JSON) that `JSON.parse` would not keep as written, or `undefined`. */
export function findJsonInfidelity(text: string): JsonInfidelity | undefined {
  return runAtOnce(scanning(text));
}

/**
 * {@link findJsonInfidelity} in slices of about `options.sliceMs`, pausing between them with
 * `options.pause` (a large body does not hold a server's event loop); the same answer.
 */
export function findJsonInfidelityInSlices(
  text: string,
  options: SliceOptions,
): Promise<JsonInfidelity | undefined> {
  return runInSlices(scanning(text), options);
}

/** The scan, as a sliced computation (`util/slices.ts`). */
function* scanning(text: string): Sliced<JsonInfidelity | undefined> {
  const stack: Frame[] = [];
  /** In an object, the next string is a key. */
  let expectKey = false;
  const where = (): string => {
    const path: PropertyKey[] = [];
    for (const frame of stack)
      if (frame.kind === 'array') path.push(frame.index);
      else if (frame.key !== undefined) path.push(frame.key);
    return path.length === 0 ? '(the top level)' : formatPath(path);
  };
  let i = 0;
  let pauseAt = CHARS_PER_STEP;
  while (i < text.length) {
    if (i >= pauseAt) {
      yield;
      pauseAt = i + CHARS_PER_STEP;
    }
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      const end = stringEnd(text, i);
      if (expectKey) {
        const frame = stack[stack.length - 1] as Frame & { kind: 'object' };
        const raw = text.slice(i + 1, end);
        const key = raw.includes('\\')
          ? (JSON.parse(text.slice(i, end + 1)) as string)
          : raw;
        frame.key = key;
        if (frame.keys.has(key))
          return { path: where(), reason: 'the key appears twice' };
        frame.keys.add(key);
        expectKey = false;
      }
      i = end + 1;
    } else if (c === 0x2d || (c >= 0x30 && c <= 0x39)) {
      let end = i + 1;
      while (end < text.length && isNumberChar(text.charCodeAt(end))) end++;
      if (end - i >= SHORT_NUMBER || /[eE]/.test(text.slice(i, end))) {
        const reason = numberProblem(text.slice(i, end));
        if (reason !== undefined) return { path: where(), reason };
      }
      i = end;
    } else {
      if (c === 0x7b) {
        stack.push({ kind: 'object', keys: new Set(), key: undefined });
        expectKey = true;
      } else if (c === 0x5b) stack.push({ kind: 'array', index: 0 });
      else if (c === 0x7d || c === 0x5d) {
        stack.pop();
        expectKey = false;
      } else if (c === 0x2c) {
        const frame = stack[stack.length - 1];
        if (frame?.kind === 'array') frame.index++;
        else expectKey = true;
      }
      i++;
    }
  }
  return undefined;
}

/** The index of the quote closing the string that opens at `start`. */
function stringEnd(text: string, start: number): number {
  let end = text.indexOf('"', start + 1);
  for (;;) {
    let backslashes = 0;
    while (text.charCodeAt(end - 1 - backslashes) === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return end;
    end = text.indexOf('"', end + 1);
  }
}

function isNumberChar(c: number): boolean {
  // Digits, `.`, `e`, `E`, `+`, `-`.
  return (
    (c >= 0x30 && c <= 0x39) ||
    c === 0x2e ||
    c === 0x65 ||
    c === 0x45 ||
    c === 0x2b ||
    c === 0x2d
  );
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
