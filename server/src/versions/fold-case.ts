/**
 * Case folding for search: one canonical form per set of characters that case-insensitive matching
 * treats as equal. `toLowerCase` gives that form for almost every character; the exceptions are the
 * characters whose simple case folding (Unicode CaseFolding, what RE2 and re2js use) is not their
 * lower-case form, mapped here. With it, a text matched case-insensitively by a regular expression
 * contains the pattern's literal parts once both are folded, which the search prefilter relies on.
 */
const SPECIAL: Readonly<Record<string, string>> = {
  '\u00b5': '\u03bc', // micro sign → mu
  '\u017f': 's', // long s
  '\u0345': '\u03b9', // combining ypogegrammeni → iota
  '\u03c2': '\u03c3', // final sigma
  '\u03d0': '\u03b2', // beta symbol
  '\u03d1': '\u03b8', // theta symbol
  '\u03d5': '\u03c6', // phi symbol
  '\u03d6': '\u03c0', // pi symbol
  '\u03f0': '\u03ba', // kappa symbol
  '\u03f1': '\u03c1', // rho symbol
  '\u03f5': '\u03b5', // lunate epsilon
  '\u1e9b': '\u1e61', // long s with dot above
  '\u1fbe': '\u03b9', // prosgegrammeni
  '\u1c80': '\u0432', // Cyrillic rounded ve
  '\u1c81': '\u0434', // long-legged de
  '\u1c82': '\u043e', // narrow o
  '\u1c83': '\u0441', // wide es
  '\u1c84': '\u0442', // tall te
  '\u1c85': '\u0442', // three-legged te
  '\u1c86': '\u044a', // tall hard sign
  '\u1c87': '\u0463', // tall yat
  '\u1c88': '\ua64b', // unblended uk
  // Pairs Unicode folds together although neither is the other's lower case.
  '\u1fd3': '\u0390', // iota with dialytika and oxia / and tonos
  '\u1fe3': '\u03b0', // upsilon with dialytika and oxia / and tonos
  '\ufb05': '\ufb06', // ligature long s t / s t
};

const SPECIAL_CHARS = new RegExp(
  `[${Object.keys(SPECIAL)
    .map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
    .join('')}]`,
  'g',
);

/** `text` in its folded form (the same length as its lower-case form). */
export function foldCase(text: string): string {
  const lower = text.toLowerCase();
  SPECIAL_CHARS.lastIndex = 0;
  return SPECIAL_CHARS.test(lower)
    ? lower.replace(SPECIAL_CHARS, (c) => SPECIAL[c] ?? c)
    : lower;
}
