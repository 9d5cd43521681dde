/**
 * The tokenizer (docs/expression-reference.md §2, §1 step 4). Section numbers (§) and rule ids (P, D) in the
 * test names are that document's.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_TOKENS, tokenize, tokenizeWithSpans } from './lexer.js';
import type { Token } from './token-kind.js';

/** A compact rendering of tokens for table rows. */
function show(text: string): string[] | null {
  const tokens = tokenize(text);
  if (tokens === null) return null;
  return tokens.map((token: Token) => {
    switch (token.kind) {
      case 'PLUS':
        return '+';
      case 'PIPE':
        return '|';
      case 'MINUS':
        return '-';
      case 'COMMA':
        return ',';
      case 'LPAREN':
        return '(';
      case 'RPAREN':
        return ')';
      case 'ITEM_ID':
        return `id:${token.value}`;
      case 'CLASS':
        return `class:${token.value}`;
      case 'DOM_REF':
        return `dom:${token.value}`;
      case 'REGEX':
        return `re:[${token.key}][${token.fields}]`;
      case 'PROTOCOL':
        return `proto:${[token.name, ...token.args].join('~')}`;
      case 'REFINER':
        return `ref:${[token.name, ...token.args].join('~')}`;
    }
  });
}

describe('tokenizer (§2)', () => {
  it.each<[string, string[]]>([
    [
      'a+b|c-d,e(f)',
      [
        'id:a',
        '+',
        'id:b',
        '|',
        'id:c',
        '-',
        'id:d',
        ',',
        'id:e',
        '(',
        'id:f',
        ')',
      ],
    ],
    ['||', ['|', '|']],
    ['--', ['-', '-']],
    ['.x', ['class:x']],
    ['. x', ['id:x']],
    ['..x', ['class:x']],
    ['#w', ['dom:w']],
    ['# w', ['id:w']],
    ['abc_12', ['id:abc_12']],
    ['bé', ['id:b']],
    ['a\u2013b', ['id:a', 'id:b']],
    ['a\u2010b\u2212c', ['id:a', 'id:b', 'id:c']],
    ['a\u200bb', ['id:a', 'id:b']],
    ['!"\'$%&;<>?@[]{}\\^~=`\u0000', []],
    [
      '\t\n\v\f\r \u00a0\u1680\u2000\u200a\u2028\u2029\u202f\u205f\u3000\ufeffa',
      ['id:a'],
    ],
    ['\ud83d\ude00x', ['id:x']],
    ['e\u0301', ['id:e']],
  ])('%j → %j', (text, expected) => {
    expect(show(text)).toEqual(expected);
  });
});

describe('search-pattern tokens (§2.1)', () => {
  it.each<[string, string[]]>([
    ['/k/', ['re:[k][]']],
    ['/k/lt', ['re:[k][lt]']],
    ['/k/lutdkaz', ['re:[k][lutdka]', 'id:z']],
    ['/k/L', ['re:[k][]', 'id:L']],
    ['/k | .x', ['re:[k ][ .x]']],
    ['/my key/', ['re:[my key][]']],
    ['//', []],
    ['//lt', []],
    ['//lt a', ['id:a']],
    ['/p|l/', ['re:[p][l]']],
    ['/p|q/l', ['re:[p][q]']],
    ['/p|/', ['re:[p][]']],
    ['/p|q|r/', ['re:[p][q]']],
    ['/k/,/j/', ['re:[k][]', ',', 're:[j][]']],
  ])('%j → %j', (text, expected) => {
    expect(show(text)).toEqual(expected);
  });
});

describe('protocol tokens (§2.2)', () => {
  it.each<[string, string[]]>([
    [':time:3d:', ['proto:time~3d']],
    [':time:3d', ['proto:time~3d']],
    [':time:3d:9d:', ['proto:time~3d~9d']],
    [':time:3d|9d:', ['proto:time~3d~9d']],
    [':time|3d:', ['proto:time~3d']],
    [':x + a', ['proto:x + a']],
    ['::', []],
    [':', []],
    [':::', ['proto:~']],
    [': :', ['proto: ']],
    [':time:3d:-.x', ['proto:time~3d~-.x']],
    [':time:3d:a', ['proto:time~3d~a']],
    [':time: 3d:', ['proto:time', 'id:3d']],
    [
      ':location:radius:10.5,-20.25:3km:',
      ['proto:location~radius~10.5,-20.25~3km'],
    ],
    [':time:3d + a:', ['proto:time~3d + a']],
    [':time:3d::', ['proto:time~3d~']],
    [':time:+a', ['proto:time', '+', 'id:a']],
    [':time:|a', ['proto:time', '|', 'id:a']],
    [':time:,a', ['proto:time', ',', 'id:a']],
    [':time:(a)', ['proto:time', '(', 'id:a', ')']],
    [':time:*sort*', ['proto:time', 'ref:sort']],
    [':time:/k/', ['proto:time', 're:[k][]']],
    [':time:.x', ['proto:time~.x']],
    [':time:#x', ['proto:time~#x']],
  ])('%j → %j', (text, expected) => {
    expect(show(text)).toEqual(expected);
  });
});

describe('refiner tokens (§2.3)', () => {
  it.each<[string, string[]]>([
    ['*sort*', ['ref:sort']],
    ['*sort:label*', ['ref:sort~label']],
    ['*limit:2:x*', ['ref:limit~2~x']],
    ['* sort *', ['ref: sort ']],
    ['**', []],
    ['a *', ['id:a']],
    ['*sort', ['ref:sort']],
    ['*sort* *limit:1*', ['ref:sort', 'ref:limit~1']],
  ])('%j → %j', (text, expected) => {
    expect(show(text)).toEqual(expected);
  });
});

describe('token limit (§1 step 4)', () => {
  it('accepts 1024 tokens and refuses 1025', () => {
    expect(tokenize('a '.repeat(MAX_TOKENS))).toHaveLength(1024);
    expect(tokenize('a '.repeat(MAX_TOKENS + 1))).toBeNull();
  });
  it('does not count skipped characters', () => {
    expect(tokenize(`${'! '.repeat(5000)}a`)).toHaveLength(1);
  });
});

describe('tokenizeWithSpans', () => {
  it('returns the tokens tokenize returns, each spanning its own text', () => {
    fc.assert(
      fc.property(
        fc.string({
          unit: fc.constantFrom(...'ab1_ .#/:*@+|-,()é–\u00a0lutk'),
          maxLength: 60,
        }),
        (text) => {
          const spanned = tokenizeWithSpans(text);
          expect(spanned.tokens).toEqual(tokenize(text));
          spanned.tokens.forEach((token, i) => {
            const piece = text.slice(spanned.starts[i], spanned.ends[i]);
            expect(tokenize(piece)).toEqual([token]);
          });
        },
      ),
      { numRuns: 300 },
    );
  });

  it('lists each piece of non-whitespace text that yields no token', () => {
    const text = 'bé . # // ** :: x\u2013y';
    const { skipped } = tokenizeWithSpans(text);
    expect(skipped.map(([s, e]) => text.slice(s, e))).toEqual([
      'é',
      '.',
      '#',
      '//',
      '**',
      '::',
      '\u2013',
    ]);
  });

  it('stops at the first token beyond the limit and says where it starts', () => {
    const text = 'a b c d';
    const spanned = tokenizeWithSpans(text, 3);
    expect(spanned.tokens).toHaveLength(3);
    expect(spanned.overflowAt).toBe(6);
    expect(tokenizeWithSpans(text, 4).overflowAt).toBeUndefined();
  });
});
