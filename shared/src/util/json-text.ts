/**
 * `JSON.stringify` of a large parsed JSON value in steps that may pause (`slices.ts`): the value and its
 * members (a config and its sections), and any object or array with many members, are written member by
 * member; each smaller value (a link) by `JSON.stringify` itself. So the text is exactly the one
 * `JSON.stringify` gives. For JSON values as `JSON.parse` makes them (and merge patches of them): plain
 * objects, arrays, strings, numbers, booleans and `null`.
 */
import { isPlainObject } from './is-plain-object.js';
import type { Sliced } from './slices.js';

/** Objects and arrays this shallow are always written member by member (a config, its sections). */
const SPLIT_DEPTH = 2;
/** From this many members, an object or array at any depth is written member by member. */
const SPLIT_MEMBERS = 64;
/** Values written by `JSON.stringify` between two points where writing may pause. */
const WRITES_PER_STEP = 64;

/** The text of `value`, as `JSON.stringify(value)`, in steps. */
export function* jsonText(value: unknown): Sliced<string> {
  const writer = { parts: [] as string[], writes: 0 };
  yield* write(value, 0, writer);
  return writer.parts.join('');
}

interface Writer {
  readonly parts: string[];
  writes: number;
}

function* write(value: unknown, depth: number, writer: Writer): Sliced<void> {
  const { parts } = writer;
  if (Array.isArray(value)) {
    if (depth < SPLIT_DEPTH || value.length >= SPLIT_MEMBERS) {
      parts.push('[');
      for (let i = 0; i < value.length; i++) {
        if (i > 0) parts.push(',');
        yield* write(value[i], depth + 1, writer);
      }
      parts.push(']');
      return;
    }
  } else if (isPlainObject(value)) {
    const keys = Object.keys(value);
    if (depth < SPLIT_DEPTH || keys.length >= SPLIT_MEMBERS) {
      parts.push('{');
      for (let i = 0; i < keys.length; i++) {
        const key = keys[i] ?? '';
        if (i > 0) parts.push(',');
        parts.push(JSON.stringify(key), ':');
        yield* write(value[key], depth + 1, writer);
      }
      parts.push('}');
      return;
    }
  }
  parts.push(JSON.stringify(value));
  if (++writer.writes % WRITES_PER_STEP === 0) yield;
}
