/**
 * The safety heuristic for stored search patterns (docs/expression-reference.md §8.4) and their linear-time
 * compilation (D3).
 */
import { RE2JS } from 're2js';
import { LIMITS } from '../../schemas/limits.js';

/** `?`, `*`, `+` or a `{n}` / `{n,}` / `{n,m}` form anywhere in a text. */
const INNER_QUANTIFIER = /[?*+]|\{\d+(?:,\d*)?\}/;

/** Whether a quantifier starts at index `at` of `pattern`. */
function quantifierAt(pattern: string, at: number): boolean {
  const sticky = /[?*+]|\{\d+(?:,\d*)?\}/y;
  sticky.lastIndex = at;
  return sticky.test(pattern);
}

/** The index just past the character class that opens at `start` (a `[`); unclosed runs to the end. */
function classEnd(pattern: string, start: number): number {
  let i = start + 1;
  if (pattern.charAt(i) === '^') i++;
  if (pattern.charAt(i) === ']') i++;
  while (i < pattern.length && pattern.charAt(i) !== ']') {
    i += pattern.charAt(i) === '\\' ? 2 : 1;
  }
  return Math.min(i + 1, pattern.length);
}

/** `text` with escapes (a backslash and the next character) and character classes deleted. */
function stripEscapesAndClasses(text: string): string {
  let out = '';
  let i = 0;
  while (i < text.length) {
    const char = text.charAt(i);
    if (char === '\\') i += 2;
    else if (char === '[') i = classEnd(text, i);
    else {
      out += char;
      i++;
    }
  }
  return out;
}

/** Whether `pattern` is valid JavaScript regular-expression syntax without flags. */
function isValidJsRegExp(pattern: string): boolean {
  try {
    new RegExp(pattern);
    return true;
  } catch {
    return false;
  }
}

/**
 * The heuristic (docs/expression-reference.md §8.4): `false` when the pattern is not valid JavaScript syntax,
 * or when some quantified group's body (escapes and classes deleted) contains a quantifier.
 */
export function isSafePattern(pattern: string): boolean {
  if (!isValidJsRegExp(pattern)) return false;
  const open: number[] = [];
  let i = 0;
  while (i < pattern.length) {
    const char = pattern.charAt(i);
    if (char === '\\') {
      i += 2;
      continue;
    }
    if (char === '[') {
      i = classEnd(pattern, i);
      continue;
    }
    if (char === '(') open.push(i);
    else if (char === ')') {
      const start = open.pop();
      if (
        start !== undefined &&
        quantifierAt(pattern, i + 1) &&
        INNER_QUANTIFIER.test(
          stripEscapesAndClasses(pattern.slice(start + 1, i)),
        )
      ) {
        return false;
      }
    }
    i++;
  }
  return true;
}

/**
 * Why a stored pattern cannot be used, or `null` when it can: not JavaScript syntax (`invalid`), refused
 * by the heuristic (`unsafe`), refused by re2js (`unsupported`), or compiled to a program larger than
 * {@link LIMITS.patternProgramMax} (`too_large`). For diagnostics; the engine itself only needs
 * {@link compileSafePattern}.
 */
export function searchPatternProblem(
  pattern: string,
): 'invalid' | 'unsafe' | 'unsupported' | 'too_large' | null {
  if (!isValidJsRegExp(pattern)) return 'invalid';
  if (!isSafePattern(pattern)) return 'unsafe';
  try {
    return compileLinear(pattern) instanceof RE2JS ? null : 'too_large';
  } catch {
    return 'unsupported';
  }
}

/**
 * `pattern` compiled by re2js, case-insensitively, unless its program is larger than
 * {@link LIMITS.patternProgramMax} (`'too_large'`, with the size): the one rule for every pattern the
 * server or a browser runs, stored or given in a request. Throws what re2js throws on a pattern it
 * cannot read.
 */
export function compileLinear(
  pattern: string,
): RE2JS | { readonly tooLarge: number } {
  const compiled = RE2JS.compile(pattern, RE2JS.CASE_INSENSITIVE);
  const size = compiled.programSize();
  return size > LIMITS.patternProgramMax ? { tooLarge: size } : compiled;
}

/**
 * The heuristic, then a case-insensitive re2js compilation (D3). `null` when either refuses the pattern
 * (re2js refuses lookaround, backreferences and some JavaScript-only escapes, and programs larger than
 * {@link LIMITS.patternProgramMax}).
 */
export function compileSafePattern(pattern: string): RE2JS | null {
  if (!isSafePattern(pattern)) return null;
  try {
    const compiled = compileLinear(pattern);
    return compiled instanceof RE2JS ? compiled : null;
  } catch {
    return null;
  }
}
