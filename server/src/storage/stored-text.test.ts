import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Utf8Text, textOf } from './stored-text.js';

const fatal = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** What a strict decoder makes of `bytes`, or `undefined` when they are not UTF-8. */
function strictly(bytes: Uint8Array): string | undefined {
  try {
    return fatal.decode(bytes);
  } catch {
    return undefined;
  }
}

describe('Utf8Text: a text and exactly its UTF-8 bytes', () => {
  it('is made from any UTF-8 bytes, and its text encodes back to those bytes', () => {
    // Texts of every width, lone surrogates included (encoded as U+FFFD: what a client sends for them).
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 200 }), (text) => {
        const bytes = Buffer.from(text, 'utf8');
        const made = Utf8Text.decoded(bytes);
        expect(made).toBeDefined();
        expect(made?.text).toBe(strictly(bytes));
        expect(Buffer.from(made?.text ?? '', 'utf8').equals(bytes)).toBe(true);
        expect(made?.bytes.byteLength).toBe(bytes.byteLength);
      }),
      { numRuns: 200 },
    );
  });

  it('reads ASCII bytes, and ASCII with other characters anywhere, as a strict decoder does', () => {
    // Long texts too: the ASCII test runs over blocks of bytes, so a wider character may sit past the first.
    const ascii = fc.string({ unit: 'grapheme-ascii', maxLength: 300 });
    const other = fc.string({ unit: 'binary', minLength: 1, maxLength: 2 });
    fc.assert(
      fc.property(ascii, fc.option(other), ascii, (a, b, c) => {
        const text = `${a}${b ?? ''}${c}`;
        const bytes = Buffer.from(text, 'utf8');
        const made = Utf8Text.decoded(bytes);
        expect(made?.text).toBe(strictly(bytes));
        expect(made?.bytes.byteLength).toBe(bytes.byteLength);
      }),
      { numRuns: 500 },
    );
    const large = `${'{"a":"x"},'.repeat(20_000)}é\u0080\x7f`;
    expect(Utf8Text.decoded(Buffer.from(large, 'utf8'))?.text).toBe(large);
    expect(Utf8Text.decoded(Buffer.from('\x7f\x00', 'utf8'))?.text).toBe(
      '\x7f\x00',
    );
  });

  it('is refused for bytes that are not UTF-8, and otherwise is what a strict decoder reads', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 24 }), (bytes) => {
        const made = Utf8Text.decoded(bytes);
        const strict = strictly(bytes);
        expect(made?.text).toBe(strict);
        if (made !== undefined) {
          expect(
            Buffer.from(made.text, 'utf8').equals(Buffer.from(bytes)),
          ).toBe(true);
        }
      }),
      { numRuns: 2000 },
    );
  });

  it.each([
    [
      'a byte order mark, kept as U+FEFF',
      [0xef, 0xbb, 0xbf, 0x7b, 0x7d],
      '\ufeff{}',
    ],
    ['a surrogate encoded as UTF-8 (not UTF-8)', [0xed, 0xa0, 0x80], undefined],
    ['an overlong NUL', [0xc0, 0x80], undefined],
    ['a code point past U+10FFFF', [0xf4, 0x90, 0x80, 0x80], undefined],
    ['a cut sequence', [0x22, 0xc3], undefined],
    ['4 bytes: 😀', [0xf0, 0x9f, 0x98, 0x80], '😀'],
  ])('%s', (_, list, text) => {
    const bytes = Uint8Array.from(list);
    expect(Utf8Text.decoded(bytes)?.text).toBe(text);
  });

  it('reads bytes in the middle of a larger buffer as those bytes only', () => {
    const whole = Buffer.from('xx{"é":1}yy', 'utf8');
    const made = Utf8Text.decoded(whole.subarray(2, whole.length - 2));
    expect(made?.text).toBe('{"é":1}');
    expect(made?.bytes.byteLength).toBe(Buffer.byteLength('{"é":1}'));
    expect(made === undefined ? undefined : textOf(made)).toBe('{"é":1}');
    expect(textOf('plain')).toBe('plain');
  });
});
