/**
 * The literal text every match of a regular expression must contain, so a search can find candidate links
 * with a substring scan of the folded haystack before the (slower) regular-expression engine runs on
 * them. The reading is conservative: any construct it does not fully understand ends a literal run, and
 * anything it cannot skip safely gives up (no prefilter, every link is tested).
 *
 * RE2 syntax. A top-level alternation `a|b|c` needs literals in each alternative (a match contains those
 * of at least one alternative); within an alternative, every run of plain characters that every match
 * contains counts (`night.{0,20}market` needs both `night` and `market`).
 */
import { foldCase } from '../versions/fold-case.js';

/**
 * What a match must contain, folded: one list per top-level alternative, each naming literals that all
 * occur in every match of that alternative (a match contains all literals of at least one list); `null`
 * when no prefilter applies.
 */
export type RequiredLiterals = readonly (readonly string[])[] | null;

/** Shortest literal worth a scan: a single character narrows nothing. */
const MIN_LITERAL = 2;

/** Characters with a meaning outside a class; everything else is a literal. */
const META = new Set([
  '.',
  '^',
  '$',
  '|',
  '(',
  ')',
  '[',
  ']',
  '*',
  '+',
  '?',
  '{',
  '\\',
]);

/** `{n}`, `{n,}`, `{n,m}`, `{,m}` at `i`: the repetition's minimum and its length, or `null`. */
function repetition(
  pattern: string,
  i: number,
): { min: number; length: number } | null {
  const match = /^\{(\d*)(,\d*)?\}/.exec(pattern.slice(i, i + 32));
  if (match === null) return null;
  const [text, min = ''] = match;
  if (min === '' && match[2] === undefined) return null;
  return { min: min === '' ? 0 : Number(min), length: text.length };
}

/** The index after the character class starting at `i` (`[`), or -1 when it cannot be skipped safely. */
function skipClass(pattern: string, i: number): number {
  let j = i + 1;
  if (pattern[j] === '^') j++;
  if (pattern[j] === ']') j++;
  for (; j < pattern.length; j++) {
    const c = pattern[j];
    if (c === '\\') {
      j++;
      continue;
    }
    if (c === '[') return -1; // POSIX classes `[[:alpha:]]`: not worth the risk
    if (c === ']') return j + 1;
  }
  return -1;
}

/** The index after the group starting at `i` (`(`), or -1 when it cannot be skipped safely. */
function skipGroup(pattern: string, i: number): number {
  let depth = 0;
  for (let j = i; j < pattern.length; j++) {
    const c = pattern[j];
    if (c === '\\') {
      if (pattern[j + 1] === 'Q') return -1;
      j++;
    } else if (c === '[') {
      const end = skipClass(pattern, j);
      if (end < 0) return -1;
      j = end - 1;
    } else if (c === '(') {
      depth++;
    } else if (c === ')') {
      depth--;
      if (depth === 0) return j + 1;
    }
  }
  return -1;
}

/** The quantifier at `i`, if any: whether it allows zero repetitions, and its length (lazy `?` included). */
function quantifier(
  pattern: string,
  i: number,
): { optional: boolean; length: number } | null {
  const c = pattern[i];
  let q: { optional: boolean; length: number } | null = null;
  if (c === '*' || c === '?') q = { optional: true, length: 1 };
  else if (c === '+') q = { optional: false, length: 1 };
  else if (c === '{') {
    const rep = repetition(pattern, i);
    if (rep !== null) q = { optional: rep.min === 0, length: rep.length };
  }
  if (q !== null && pattern[i + q.length] === '?') q.length++;
  return q;
}

/**
 * The literal runs every match of one alternative (`pattern[from, to)`) contains, longest first, each of
 * at least {@link MIN_LITERAL} characters; `null` when there is none, `undefined` when the alternative
 * holds something this reader does not follow.
 */
function requiredRuns(
  pattern: string,
  from: number,
  to: number,
): string[] | null | undefined {
  const runs: string[] = [];
  let run = '';
  const end = () => {
    if (run.length >= MIN_LITERAL) runs.push(run);
    run = '';
  };
  let i = from;
  while (i < to) {
    const c = pattern[i] ?? '';
    let literal: string | undefined;
    let next = i + 1;
    if (c === '\\') {
      const e = pattern[i + 1];
      if (e === undefined || e === 'Q' || e === 'p' || e === 'P' || e === 'x')
        return undefined;
      if (/[A-Za-z0-9]/.test(e)) {
        // \b \d \w \s … : not a literal character (with its quantifier, if any).
        end();
        i += 2;
        const q = quantifier(pattern, i);
        if (q !== null) i += q.length;
        continue;
      }
      literal = e;
      next = i + 2;
    } else if (c === '[') {
      const after = skipClass(pattern, i);
      if (after < 0) return undefined;
      end();
      i = after;
      const q = quantifier(pattern, i);
      if (q !== null) i += q.length;
      continue;
    } else if (c === '(') {
      const after = skipGroup(pattern, i);
      if (after < 0) return undefined;
      end();
      i = after;
      const q = quantifier(pattern, i);
      if (q !== null) i += q.length;
      continue;
    } else if (c === '{' && repetition(pattern, i) === null) {
      literal = c;
    } else if (
      /[\uD800-\uDBFF]/.test(c) &&
      /[\uDC00-\uDFFF]/.test(pattern[i + 1] ?? '')
    ) {
      // One code point in two UTF-16 units: a quantifier after it applies to both.
      literal = pattern.slice(i, i + 2);
      next = i + 2;
    } else if (META.has(c)) {
      // `.`, anchors, a stray quantifier: no literal here, and a quantifier after them goes with them.
      end();
      const stray = quantifier(pattern, i);
      i += stray === null ? 1 : stray.length;
      const q = quantifier(pattern, i);
      if (q !== null) i += q.length;
      continue;
    } else {
      literal = c;
    }
    const q = quantifier(pattern, next);
    if (q === null) {
      run += literal;
      i = next;
      continue;
    }
    // A repeated character: it is in every match only when the repetition cannot be zero, and the run
    // ends after one copy of it (what follows may be another copy).
    if (!q.optional) run += literal;
    end();
    i = next + q.length;
  }
  end();
  return runs.length === 0 ? null : runs.sort((a, b) => b.length - a.length);
}

/** The top-level alternatives of `pattern` as `[start, end)` ranges, or `undefined` when unparsable. */
function alternatives(pattern: string): [number, number][] | undefined {
  const out: [number, number][] = [];
  let start = 0;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '\\') {
      if (pattern[i + 1] === 'Q') return undefined;
      i++;
    } else if (c === '[') {
      const end = skipClass(pattern, i);
      if (end < 0) return undefined;
      i = end - 1;
    } else if (c === '(') {
      const end = skipGroup(pattern, i);
      if (end < 0) return undefined;
      i = end - 1;
    } else if (c === '|') {
      out.push([start, i]);
      start = i + 1;
    }
  }
  out.push([start, pattern.length]);
  return out;
}

/**
 * The literals (folded) that every match of `pattern` contains at least one of, or `null` when the
 * pattern has an alternative without a usable literal, or a construct this reader does not follow.
 */
export function requiredLiterals(pattern: string): RequiredLiterals {
  // Flags could make `.` or case rules differ, but never remove a literal from a match; a pattern that
  // starts with a flag group is still read, the group is skipped like any group.
  const ranges = alternatives(pattern);
  if (ranges === undefined) return null;
  const out: string[][] = [];
  for (const [from, to] of ranges) {
    const runs = requiredRuns(pattern, from, to);
    if (runs === null || runs === undefined) return null;
    out.push([...new Set(runs.map(foldCase))]);
  }
  return out;
}
