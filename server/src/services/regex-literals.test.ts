import fc from 'fast-check';
import { RE2JS } from 're2js';
import { describe, expect, it } from 'vitest';
import { foldCase } from '../versions/fold-case.js';
import { requiredLiterals } from './regex-literals.js';

describe('requiredLiterals', () => {
  it.each([
    ['coffee', [['coffee']]],
    ['Coffee|TEA', [['coffee'], ['tea']]],
    ['\\bcoffee\\b', [['coffee']]],
    ['^bridge', [['bridge']]],
    ['old town', [['old town']]],
    [
      '(coffee|tea) house',
      [
        ['coffee', ' house'],
        [' house', 'tea'],
      ],
    ],
    ['\\b(guide|City)\\s+\\w+', [['guide'], ['city']]],
    ['(?:ab|cd)+x', [['ab'], ['cd']]],
    ['(?i:ab|cd)', [['ab'], ['cd']]],
    [
      '(?P<w>ab|cd)ef',
      [
        ['ab', 'ef'],
        ['cd', 'ef'],
      ],
    ],
    ['(ab|cd)?ef', [['ef']]],
    ['(ab|c)ef', [['ef']]],
    ['((ab|cd)ef|gh)', [['ab', 'ef'], ['cd', 'ef'], ['gh']]],
    ['(a|b)(c|d)(e|f)(g|h)(i|j)xy', [['xy']]],
    [
      '(ab|cd)(ef|gh)',
      [
        ['ab', 'ef'],
        ['ab', 'gh'],
        ['cd', 'ef'],
        ['cd', 'gh'],
      ],
    ],
    ['colou?r', [['colo']]],
    ['caf[eé]s?\\b', [['caf']]],
    ['[a-z]+ing', [['ing']]],
    ['mus[a-z]*um', [['mus', 'um']]],
    ['night.{0,20}market', [['market', 'night']]],
    ['ab+cd', [['ab', 'cd']]],
    ['x{2}yz', [['yz']]],
    ['x{0,3}yz', [['yz']]],
    ['a\\.b', [['a.b']]],
    ['(?i)hello', [['hello']]],
    ['😀?ab', [['ab']]],
  ])('%s needs all literals of one of %j', (pattern, literals) => {
    expect(requiredLiterals(pattern)).toEqual(literals);
  });

  it.each([
    ['coffee|\\d+'],
    ['[a-z]+i'],
    ['a|b'],
    ['(ab|c)'],
    ['(ab|cd)*'],
    ['\\Qcoffee\\E'],
    ['\\p{Greek}+x'],
    ['[[:alpha:]]+'],
    ['(unclosed'],
    ['.*'],
    // Octal codes: `\141` is `a`, its digits no literal.
    ['x\\141yz'],
    ['a\\0123'],
    // A quantifier after a flags-only group applies to the atom before it.
    ['ab(?i)?'],
    ['abc(?i){0}'],
  ])('offers no prefilter for %s', (pattern) => {
    expect(requiredLiterals(pattern)).toBeNull();
  });

  it('never rules out a text the regular expression matches', () => {
    const atom = fc.oneof(
      fc.constantFrom(
        'a',
        'b',
        'S',
        'k',
        'ſ',
        'K',
        'é',
        ' ',
        '.',
        '\\.',
        '\\b',
        '\\d',
        '\\141',
        '\\0',
        '(?i)',
        '[ab]',
        '[^a]',
        '😀',
      ),
      fc.constantFrom(
        '(ab|c)',
        '(?:ba)',
        '(a)',
        'ab',
        'ba',
        '(ab|ba)',
        '(?:ab|ba)+',
        '((ab|b)a|ba)',
        '(?i:ab|Sa)',
      ),
    );
    const quantified = fc
      .tuple(
        atom,
        fc.constantFrom('', '', '', '?', '*', '+', '{2}', '{0,2}', '+?'),
      )
      .map(([a, q]) => a + q);
    const alternative = fc
      .array(quantified, { minLength: 1, maxLength: 6 })
      .map((parts) => parts.join(''));
    const pattern = fc
      .array(alternative, { minLength: 1, maxLength: 3 })
      .map((alts) => alts.join('|'));
    const text = fc.stringMatching(/^[abSskſKé .😀1-3]{0,12}$/u);
    fc.assert(
      fc.property(pattern, text, (p, t) => {
        let regex: RE2JS;
        try {
          regex = RE2JS.compile(p, RE2JS.CASE_INSENSITIVE);
        } catch {
          return;
        }
        const literals = requiredLiterals(p);
        if (literals === null || !regex.matcher(t).find()) return;
        const folded = foldCase(t);
        expect(
          literals.some((all) => all.every((l) => folded.includes(l))),
          `${p} on ${JSON.stringify(t)}`,
        ).toBe(true);
      }),
      { numRuns: 3000 },
    );
  });
});
