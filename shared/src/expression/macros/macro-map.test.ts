import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { expandWithSourceMap } from './macro-map.js';
import { expandMacros } from './macros.js';

const macros = (entries: Record<string, string>): Map<string, string> =>
  new Map(Object.entries(entries));

describe('expandWithSourceMap', () => {
  it('gives the text expandMacros gives, for any macros and text', () => {
    const nameArb = fc.constantFrom('a', 'b', 'f', 'self', 'x_1');
    const bodyArb = fc.oneof(
      fc.constantFrom('@a', '@b @b', '@f @f @f', '@self', '', '.x | @', '@@'),
      fc.string({
        unit: fc.constantFrom(...'@abfx ,.|(-)*:/'),
        maxLength: 12,
      }),
      fc.constant('x'.repeat(20_000)),
    );
    fc.assert(
      fc.property(
        fc.dictionary(nameArb, bodyArb),
        fc.string({
          unit: fc.constantFrom(...'@abfsel ,.|x'),
          maxLength: 30,
        }),
        (entries, text) => {
          const table = macros(entries);
          expect(expandWithSourceMap(text, table, 0).text).toBe(
            expandMacros(text, table),
          );
        },
      ),
      { numRuns: 400 },
    );
  });

  it('maps copied text to itself, shifted by the offset', () => {
    const { text, map } = expandWithSourceMap('a | b', new Map(), 3);
    expect(text).toBe('a | b');
    expect(map.span(4, 5)).toEqual({ start: 7, end: 8, macros: [] });
  });

  it('maps macro text to the @name that brought it in, and copied text around it to itself', () => {
    const source = '.z + @m, b';
    const { text, map } = expandWithSourceMap(
      source,
      macros({ m: '.x | .y' }),
      0,
    );
    expect(text).toBe('.z + .x | .y, b');
    const y = (text ?? '').indexOf('.y');
    const span = map.span(y, y + 2);
    expect(source.slice(span.start, span.end)).toBe('@m');
    expect(span.macros).toEqual(['m']);
    const b = (text ?? '').indexOf('b');
    const after = map.span(b, b + 1);
    expect(source.slice(after.start, after.end)).toBe('b');
  });

  it('maps nested macro text to the outermost reference and names the chain', () => {
    const source = 'a, @outer';
    const { text, map } = expandWithSourceMap(
      source,
      macros({ outer: '(@inner)', inner: '.q' }),
      0,
    );
    expect(text).toBe('a, (.q)');
    const q = (text ?? '').indexOf('.q');
    const span = map.span(q, q + 2);
    expect(source.slice(span.start, span.end)).toBe('@outer');
    expect(span.macros).toEqual(['outer', 'inner']);
  });

  it('lists unknown and empty references with their places', () => {
    const source = '@nope | @ | @m';
    const { unknown } = expandWithSourceMap(source, macros({ m: '@gone' }), 0);
    expect(
      unknown.map((ref) => [ref.name, source.slice(ref.start, ref.end)]),
    ).toEqual([
      ['nope', '@nope'],
      ['', '@'],
      ['gone', '@m'],
    ]);
    expect(unknown[2]?.macros).toEqual(['m']);
  });

  it('reports where the length limit is crossed', () => {
    const source = 'a | @big | @big';
    const result = expandWithSourceMap(
      source,
      macros({ big: 'x'.repeat(40_000) }),
      0,
    );
    expect(result.text).toBeNull();
    expect(result.overflow?.limit).toBe('length');
    expect(result.overflow?.at).toMatchObject({
      start: source.lastIndexOf('@big'),
      end: source.length,
    });
  });

  it('reports where the token limit is crossed', () => {
    const result = expandWithSourceMap('@f', macros({ f: '@f @f @f' }), 0);
    expect(result.text).toBeNull();
    expect(result.overflow?.limit).toBe('tokens');
    expect(result.overflow?.at).toMatchObject({ start: 0, end: 2 });
  });
});
