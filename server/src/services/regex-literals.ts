/**
 * The literal text every match of a regular expression must contain, so a search can find candidate links
 * with a substring scan of the folded haystack before the (slower) regular-expression engine runs on
 * them. The reading is conservative: any construct it does not fully understand ends a literal run, and
 * anything it cannot skip safely gives up (no prefilter, every link is tested).
 *
 * RE2 syntax. A top-level alternation `a|b|c` needs literals in each alternative (a match contains those
 * of at least one alternative); within an alternative, every run of plain characters that every match
 * contains counts (`night.{0,20}market` needs both `night` and `market`), and so does a group that must
 * occur, by its own alternatives (`\b(guide|city)\s+\w+` needs `guide` or `city`).
 */
import { foldCase } from '../versions/fold-case.js';

/**
 * What a match must contain, folded: lists of literals, one per way of matching told apart (a top-level
 * alternative, or an alternative of a group that must occur), each naming literals that all occur in
 * every such match (a match contains all literals of at least one list); `null` when no prefilter applies.
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

/** A repetition `{n}`, `{n,}`, `{n,m}`, `{,m}` at the start of a text. */
const REPETITION = /^\{(\d*)(,\d*)?\}/;
/** What opens a group with a name or flags: `(?P<name>`, `(?<name>`, `(?flags:`. */
const GROUP_PREFIX = /^\(\?(?:P?<[A-Za-z_]\w*>|[A-Za-z-]*:)/;
/** A group that only sets flags: `(?i)`, `(?-s)`. */
const FLAGS_ONLY = /^\(\?[A-Za-z-]*\)$/;
/** An escaped letter or digit: a class, an assertion or a code (`\b`, `\d`, `\x41`…), not a literal. */
const ESCAPE_CODE = /[A-Za-z0-9]/;
/** The two halves of a code point beyond the BMP in UTF-16. */
const isHighSurrogate = (c: number) => c >= 0xd800 && c <= 0xdbff;
const isLowSurrogate = (c: number) => c >= 0xdc00 && c <= 0xdfff;

/** `{n}`, `{n,}`, `{n,m}`, `{,m}` at `i`: the repetition's minimum and its length, or `null`. */
function repetition(
  pattern: string,
  i: number,
): { min: number; length: number } | null {
  const match = REPETITION.exec(pattern.slice(i, i + 32));
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
 * Most conjunctions a reading keeps: a group of alternatives multiplies them (`(a|b)(c|d)` needs one of
 * four pairs); beyond this a group adds nothing (a weaker prefilter, never a wrong one).
 */
const MAX_CONJUNCTIONS = 16;

/** Literal sets in disjunctive form: a match contains every literal of at least one set. */
type Conjunctions = string[][];

/** Every set of `a` joined with every set of `b`, or `null` when that would be too many. */
function crossed(a: Conjunctions, b: Conjunctions): Conjunctions | null {
  if (a.length * b.length > MAX_CONJUNCTIONS) return null;
  const out: Conjunctions = [];
  for (const x of a) for (const y of b) out.push(x.concat(y));
  return out;
}

/**
 * Where a group's alternatives start (after `(`, `(?:`, `(?P<name>`, `(?<name>` or `(?flags:`), or -1
 * for a group that holds no pattern of its own (`(?i)`) or one this reader does not follow.
 */
function groupBody(pattern: string, open: number): number {
  if (pattern[open + 1] !== '?') return open + 1;
  const prefix = GROUP_PREFIX.exec(pattern.slice(open, open + 40));
  return prefix === null ? -1 : open + prefix[0].length;
}

/**
 * What every match of the group `pattern[open, close)` contains, in disjunctive form, or `null` when one
 * of its alternatives needs no literal (or the group is not followed).
 */
function groupConjunctions(
  pattern: string,
  open: number,
  close: number,
): Conjunctions | null {
  const body = groupBody(pattern, open);
  if (body < 0) return null;
  const ranges = alternatives(pattern, body, close - 1);
  if (ranges === undefined) return null;
  const out: Conjunctions = [];
  for (const [from, to] of ranges) {
    const sets = requiredRuns(pattern, from, to);
    if (sets === null || sets === undefined) return null;
    out.push(...sets);
  }
  return out.length > MAX_CONJUNCTIONS ? null : out;
}

/**
 * The literal runs every match of one alternative (`pattern[from, to)`) contains, each of at least
 * {@link MIN_LITERAL} characters, in disjunctive form (a group of alternatives `(a|b)` that must occur
 * gives one set per alternative); `null` when no set holds a literal, `undefined` when the alternative
 * holds something this reader does not follow.
 */
function requiredRuns(
  pattern: string,
  from: number,
  to: number,
): Conjunctions | null | undefined {
  let sets: Conjunctions = [[]];
  let run = '';
  const end = () => {
    if (run.length >= MIN_LITERAL) for (const set of sets) set.push(run);
    run = '';
  };
  let i = from;
  while (i < to) {
    const c = pattern[i] ?? '';
    let literal: string | undefined;
    let next = i + 1;
    if (c === '\\') {
      const e = pattern[i + 1];
      // `\141` is an octal code (`a`) whose digits run on: not followed here.
      if (
        e === undefined ||
        e === 'Q' ||
        e === 'p' ||
        e === 'P' ||
        e === 'x' ||
        (e >= '0' && e <= '9')
      )
        return undefined;
      if (ESCAPE_CODE.test(e)) {
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
      const q = quantifier(pattern, after);
      // A quantifier after a flags-only group (`ab(?i)?`) applies to what came before it: not followed.
      if (q !== null && FLAGS_ONLY.test(pattern.slice(i, after)))
        return undefined;
      // A group that must occur adds what one of its alternatives needs (`+` repeats one of them).
      const inner =
        q?.optional === true ? null : groupConjunctions(pattern, i, after);
      const joined = inner === null ? null : crossed(sets, inner);
      if (joined !== null) sets = joined;
      i = after + (q === null ? 0 : q.length);
      continue;
    } else if (c === '{' && repetition(pattern, i) === null) {
      literal = c;
    } else if (
      isHighSurrogate(pattern.charCodeAt(i)) &&
      isLowSurrogate(pattern.charCodeAt(i + 1))
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
  if (sets.some((set) => set.length === 0)) return null;
  return sets.map((set) => set.sort((a, b) => b.length - a.length));
}

/**
 * The alternatives of `pattern[from, to)` at its own level as `[start, end)` ranges, or `undefined` when
 * unparsable.
 */
function alternatives(
  pattern: string,
  from = 0,
  to = pattern.length,
): [number, number][] | undefined {
  const out: [number, number][] = [];
  let start = from;
  for (let i = from; i < to; i++) {
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
  out.push([start, to]);
  return out;
}

/**
 * The literals (folded) that every match of `pattern` contains, in disjunctive form (a match contains
 * every literal of at least one list), or `null` when the pattern has an alternative without a usable
 * literal, or a construct this reader does not follow.
 */
export function requiredLiterals(pattern: string): RequiredLiterals {
  // Flags could make `.` or case rules differ, but never remove a literal from a match; a pattern that
  // starts with a flag group is still read, the group is skipped like any group.
  const ranges = alternatives(pattern);
  if (ranges === undefined) return null;
  const out: string[][] = [];
  for (const [from, to] of ranges) {
    const sets = requiredRuns(pattern, from, to);
    if (sets === null || sets === undefined) return null;
    for (const set of sets) out.push([...new Set(set.map(foldCase))]);
  }
  return out;
}
