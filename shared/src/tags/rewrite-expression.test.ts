import { describe, expect, it } from 'vitest';
import { renameTagInExpression, tagsNamedIn } from './rewrite-expression.js';

const rename = (text: string, from: string[], to: string) =>
  renameTagInExpression(text, new Set(from), to);

describe('the tag rewrite rule over the expression grammar', () => {
  it('renames a `.tag` atom and keeps every other character', () => {
    expect(rename('.nyc', ['nyc'], 'newyork')).toBe('.newyork');
    expect(rename('  .nyc  +  .bridge ', ['nyc'], 'ny')).toBe(
      '  .ny  +  .bridge ',
    );
  });

  it('renames `-.tag` (WITHOUT) and leaves the operator alone', () => {
    expect(rename('.bridge -.nyc', ['nyc'], 'ny')).toBe('.bridge -.ny');
    expect(rename('.bridge - .nyc', ['nyc'], 'ny')).toBe('.bridge - .ny');
  });

  it('renames inside parentheses at any depth', () => {
    expect(rename('(.nyc | (.sf + .nyc)), .x', ['nyc'], 'ny')).toBe(
      '(.ny | (.sf + .ny)), .x',
    );
  });

  it('renames the atoms a refiner applies to, never the refiner text itself', () => {
    expect(rename('.nyc *sort:nyc* *limit:2*', ['nyc'], 'ny')).toBe(
      '.ny *sort:nyc* *limit:2*',
    );
    expect(rename('*.nyc*', ['nyc'], 'ny')).toBe('*.nyc*');
  });

  it('never touches a name that only looks like the tag', () => {
    // A longer tag, a link id, a search key, a protocol argument, a DOM reference, a macro reference.
    expect(
      rename('.nycx + nyc + /.nyc/ + :time:.nyc: + #nyc + @nyc', ['nyc'], 'ny'),
    ).toBe('.nycx + nyc + /.nyc/ + :time:.nyc: + #nyc + @nyc');
  });

  it('is exact about case: `.NYC` is another tag', () => {
    expect(rename('.NYC | .nyc', ['NYC'], 'nyc')).toBe('.nyc | .nyc');
    expect(rename('.NYC | .nyc', ['nyc'], 'city')).toBe('.NYC | .city');
  });

  it('merges several tags into one in one pass', () => {
    expect(rename('.NYC + .newyork - .nyc', ['NYC', 'newyork'], 'nyc')).toBe(
      '.nyc + .nyc - .nyc',
    );
  });

  it('keeps a text that names none of the tags as it was', () => {
    const text = 'a, b *sort*';
    expect(rename(text, ['nyc'], 'ny')).toBe(text);
  });

  it('reads the second dot of `..nyc` as the tag, as the lexer does', () => {
    expect(rename('..nyc', ['nyc'], 'ny')).toBe('..ny');
  });

  it('lists the tags an expression names', () => {
    expect(tagsNamedIn('(.a | .b) - .a, /x/ *sort* .c')).toEqual([
      'a',
      'b',
      'c',
    ]);
  });
});
