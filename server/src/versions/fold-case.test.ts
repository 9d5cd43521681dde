import { RE2JS } from 're2js';
import { describe, expect, it } from 'vitest';
import { foldCase } from './fold-case.js';

/** Every BMP character except surrogates, as one string. */
const BMP = Array.from({ length: 0x10000 }, (_, i) =>
  i >= 0xd800 && i <= 0xdfff ? '' : String.fromCharCode(i),
).join('');

const escape = (c: string) => c.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');

describe('foldCase', () => {
  it('gives every set of case-insensitively equal characters one form (Unicode simple case folding)', () => {
    // JavaScript's `iu` matching uses Unicode simple case folding, as RE2 does: every character it
    // treats as equal to `c` must fold to the same form as `c`.
    const cased = [...BMP].filter(
      (c) =>
        c.toLowerCase() !== c || c.toUpperCase() !== c || foldCase(c) !== c,
    );
    const mismatches: string[] = [];
    for (const c of cased) {
      for (const [d] of BMP.matchAll(new RegExp(escape(c), 'giu'))) {
        if (foldCase(d) !== foldCase(c)) {
          mismatches.push(
            `U+${c.charCodeAt(0).toString(16)} ~ U+${d.charCodeAt(0).toString(16)}`,
          );
        }
      }
    }
    expect(mismatches).toEqual([]);
  });

  it('folds the characters re2js matches case-insensitively beyond lower case', () => {
    for (const [text, pattern] of [
      ['\u017fun', 'sun'],
      ['\u212aelvin', 'kelvin'],
      ['\u03c2', '\u03a3'],
      ['\u00b5', '\u039c'],
    ] as const) {
      expect(
        RE2JS.compile(pattern, RE2JS.CASE_INSENSITIVE).matcher(text).find(),
      ).toBe(true);
      expect(foldCase(text)).toBe(foldCase(pattern));
    }
  });
});
