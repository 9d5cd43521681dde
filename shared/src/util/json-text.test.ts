import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jsonText } from './json-text.js';
import { runAtOnce } from './slices.js';

/** Counts the pauses of a computation run to its end. */
function run<T>(steps: Generator<void, T, void>): { value: T; pauses: number } {
  let pauses = 0;
  for (;;) {
    const step = steps.next();
    if (step.done === true) return { value: step.value, pauses };
    pauses++;
  }
}

describe('jsonText (JSON.stringify in steps)', () => {
  it('gives exactly the text of JSON.stringify for any JSON value', () => {
    // Wide objects and arrays too, so that values are written member by member.
    const wide = fc.oneof(
      fc.jsonValue(),
      fc.array(fc.jsonValue({ maxDepth: 2 }), {
        minLength: 60,
        maxLength: 200,
      }),
      fc.dictionary(fc.string(), fc.jsonValue({ maxDepth: 2 }), {
        minKeys: 60,
        maxKeys: 200,
      }),
    );
    fc.assert(
      fc.property(fc.oneof(wide, fc.record({ allLinks: wide })), (value) => {
        const parsed: unknown = JSON.parse(JSON.stringify(value));
        expect(runAtOnce(jsonText(parsed))).toBe(JSON.stringify(parsed));
      }),
      { numRuns: 300 },
    );
  });

  it('keeps integer-like keys first, own __proto__ keys and -0 as JSON.stringify does', () => {
    const members = Array.from({ length: 70 }, (_, i) => `"k${i}":${i}`);
    const parsed: unknown = JSON.parse(
      `{${members.join(',')},"7":-0,"__proto__":{"a":[1,-0]}}`,
    );
    expect(Object.keys(parsed as object)[0]).toBe('7');
    expect(runAtOnce(jsonText(parsed))).toBe(JSON.stringify(parsed));
  });

  it('pauses between the members of a large object', () => {
    const allLinks = Object.fromEntries(
      Array.from({ length: 6400 }, (_, i) => [`l${i}`, { url: `u${i}` }]),
    );
    const { value, pauses } = run(jsonText({ allLinks }));
    expect(value).toBe(JSON.stringify({ allLinks }));
    expect(pauses).toBe(100);
  });
});
