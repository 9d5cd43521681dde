/**
 * Patterns whose answer on a text a short scan decides exactly, without re2js: an optional `\b`, `\B` or
 * `^`, one literal or a group of literal alternatives (ASCII), then either an assertion (`\b`, `\B`, `$`)
 * or a run of Perl classes (`\s \S \w \W \d \D`, once or `+`, trailing `*` and `?`), e.g.
 * `\b(guide|city)\s+\w+`, `\bguide\b`, `^city`; or a whole pattern of literal alternatives `guide|city`.
 * A search brings a new pattern with nearly every request, and re2js spends more compiling one (tens to
 * hundreds of µs) and building its matcher's states on the first texts than it spends testing them;
 * this scan needs neither.
 *
 * It decides what re2js decides with `CASE_INSENSITIVE` (the only way searches compile), on the same
 * UTF-16 text: `\b` compares the code units on either side (a word character is ASCII `[0-9A-Za-z_]`);
 * a literal letter matches its Unicode simple case-folding orbit (`k` also matches the Kelvin sign
 * U+212A, `s` the long s U+017F); `\w` folded holds those two signs as well, so `\W` does not; `\s` is
 * `[\t\n\f\r ]`; a class matches one code point (a surrogate pair counts as one).
 *
 * Greedy runs are exact when a `+` class shares no character with the class after it (a shorter run
 * would leave a character the next class cannot match), and the scan stays linear when it shares none
 * with what comes before it either (a run then starts where a maximal run starts, so each run is
 * scanned once per alternative); the literals are short ({@link DECIDED_LITERAL_UNITS}). Any pattern
 * outside these rules gets `null` and goes to re2js.
 */

/** A class as a test of one code point. */
type Members = (c: number) => boolean;

const isSpace: Members = (c) =>
  c === 32 || c === 9 || c === 10 || c === 12 || c === 13;
const isDigit: Members = (c) => c >= 48 && c <= 57;
/** A word character for `\b` (never folded: re2js compares the code units as they are). */
const isWordUnit = (c: number): boolean =>
  (c >= 48 && c <= 57) ||
  (c >= 65 && c <= 90) ||
  (c >= 97 && c <= 122) ||
  c === 95;
const KELVIN = 0x212a;
const LONG_S = 0x17f;
/** `\w` under case folding: the ASCII word characters and what folds onto them. */
const isWordFolded: Members = (c) =>
  isWordUnit(c) || c === KELVIN || c === LONG_S;

const CLASSES: Readonly<Record<string, Members>> = {
  s: isSpace,
  S: (c) => !isSpace(c),
  d: isDigit,
  D: (c) => !isDigit(c),
  w: isWordFolded,
  W: (c) => !isWordFolded(c),
};

/**
 * One code point of every kind the classes tell apart (ASCII, the two folded signs, anything else, a
 * code point beyond the BMP): two classes that share none of these share nothing.
 */
const REPRESENTATIVES: readonly number[] = [
  ...Array.from({ length: 128 }, (_, c) => c),
  KELVIN,
  LONG_S,
  0xe9,
  0x1f600,
];

const disjoint = (a: Members, b: Members): boolean =>
  !REPRESENTATIVES.some((c) => a(c) && b(c));

/** One class of the suffix: matched once, or `+` (a maximal run of one or more). */
interface Step {
  readonly members: Members;
  readonly many: boolean;
}

/** A pattern this module decides. */
export interface DecidedPattern {
  /** What must hold before the literals (`\\b`, `\\B`, `^`) and right after them (`\\b`, `\\B`, `$`). */
  readonly start: Edge;
  readonly end: Edge;
  /** The alternatives, as written (ASCII, unescaped), none empty. */
  readonly alternatives: readonly string[];
  readonly steps: readonly Step[];
}

/** What opens a group: `(`, `(?:`, `(?P<name>`, `(?<name>`. */
const GROUP_OPEN = /^\((?:\?:|\?P?<[A-Za-z_]\w*>)?/;
/** Characters with a meaning in a pattern; everything else printable ASCII is itself. */
const META = '.^$|()[]{}*+?\\';

/** The literal character at `i` and its length in the pattern, or `null` when it is not one. */
function literalAt(
  pattern: string,
  i: number,
): { char: string; length: number } | null {
  const c = pattern.charCodeAt(i);
  // Written as ranges that hold, so that past the end (`NaN`) nothing is a literal.
  if (!(c >= 0x20 && c <= 0x7e)) return null;
  const char = pattern.charAt(i);
  if (char !== '\\') return META.includes(char) ? null : { char, length: 1 };
  // `\` before ASCII punctuation is that character; before a letter or digit it is a code or class.
  const next = pattern.charCodeAt(i + 1);
  if (!(next >= 0x21 && next <= 0x7e) || isWordUnit(next)) return null;
  return { char: pattern.charAt(i + 1), length: 2 };
}

/** The literal alternatives at `i` up to `end` (a `)` or a `\`), and where they stop. */
function literalRun(pattern: string, i: number): { text: string; end: number } {
  let text = '';
  let at = i;
  for (;;) {
    const literal = literalAt(pattern, at);
    if (literal === null) return { text, end: at };
    text += literal.char;
    at += literal.length;
  }
}

/** A zero-width assertion a decided pattern may start or end with: `\b`, `\B`, `^` or `$`, or none. */
type Edge = 'word' | 'not-word' | 'text' | 'none';

const EDGES: readonly (readonly [string, Edge])[] = [
  ['\\b', 'word'],
  ['\\B', 'not-word'],
];

/** The alternatives of a group at `open`, and the index after its `)`, or `null`. */
function groupAlternatives(
  pattern: string,
  open: number,
): { alternatives: string[]; end: number } | null {
  const prefix = GROUP_OPEN.exec(pattern.slice(open, open + 40));
  if (prefix === null) return null;
  const alternatives: string[] = [];
  let i = open + prefix[0].length;
  for (;;) {
    const run = literalRun(pattern, i);
    if (run.text === '') return null;
    alternatives.push(run.text);
    i = run.end;
    if (pattern[i] === ')') return { alternatives, end: i + 1 };
    if (pattern[i] !== '|') return null;
    i++;
  }
}

/** `a|b|c` of plain literals, the whole pattern, as the alternatives of a group; else `null`. */
function topLevelAlternatives(pattern: string): DecidedPattern | null {
  const alternatives = pattern.split('|');
  for (const a of alternatives) {
    const run = literalRun(a, 0);
    if (run.text === '' || run.end !== a.length) return null;
  }
  return {
    start: 'none',
    end: 'none',
    alternatives: alternatives.map((a) => literalRun(a, 0).text),
    steps: [],
  };
}

/**
 * The most literal code units a decided pattern's alternatives may hold together. The scan compares, at
 * each position that starts an alternative, up to all of them: its cost is the text's length times this
 * at most, as re2js's is the text's length times its states. A longer literal (`a{999}b` spelled out, on a
 * text of `a`s) goes to re2js, whose matcher does not compare it again at every position.
 */
export const DECIDED_LITERAL_UNITS = 64;

/** `pattern` read as a decided pattern, or `null` when it is not of that shape (or its literals are long). */
export function decidedPattern(pattern: string): DecidedPattern | null {
  const decided = decidedShape(pattern);
  return decided !== null &&
    decided.alternatives.reduce((sum, a) => sum + a.length, 0) <=
      DECIDED_LITERAL_UNITS
    ? decided
    : null;
}

/** `pattern` read as a decided pattern of any literal length, or `null` when it is not of that shape. */
function decidedShape(pattern: string): DecidedPattern | null {
  let i = 0;
  let start: Edge = pattern.startsWith('^') ? 'text' : 'none';
  for (const [text, edge] of EDGES) if (pattern.startsWith(text)) start = edge;
  if (start !== 'none') i = start === 'text' ? 1 : 2;
  let alternatives: string[];
  const group = groupAlternatives(pattern, i);
  if (group !== null) {
    alternatives = group.alternatives;
    i = group.end;
  } else {
    const run = literalRun(pattern, i);
    if (run.text === '') return null;
    // `|` outside a group splits the whole pattern, assertions and classes included.
    if (pattern[run.end] === '|')
      return start === 'none' ? topLevelAlternatives(pattern) : null;
    // The last literal of a run followed by a quantifier belongs to it: not decided.
    if (run.end < pattern.length && !'\\$'.includes(pattern[run.end] ?? ''))
      return null;
    alternatives = [run.text];
    i = run.end;
  }
  // An assertion at the end, right after the literals (after a class, a run could end elsewhere).
  let end: Edge = pattern.slice(i) === '$' ? 'text' : 'none';
  for (const [text, edge] of EDGES) if (pattern.slice(i) === text) end = edge;
  if (end !== 'none') return { start, end, alternatives, steps: [] };
  const steps = suffixSteps(pattern, i);
  if (steps === null) return null;
  const lastChars = alternatives.map((a) =>
    foldedMembers(a.charAt(a.length - 1)),
  );
  for (let s = 0; s < steps.length; s++) {
    const step = steps[s];
    if (step === undefined || !step.many) continue;
    const next = steps[s + 1];
    const before = s === 0 ? lastChars : [steps[s - 1]?.members ?? isSpace];
    if (next !== undefined && !disjoint(step.members, next.members))
      return null;
    if (!before.every((m) => disjoint(step.members, m))) return null;
  }
  return { start, end: 'none', alternatives, steps };
}

/** The classes after the literals, trailing optional ones dropped and a last `+` reduced to once. */
function suffixSteps(pattern: string, from: number): Step[] | null {
  const read: { members: Members; quantifier: string }[] = [];
  let i = from;
  while (i < pattern.length) {
    if (pattern[i] !== '\\') return null;
    const members = CLASSES[pattern[i + 1] ?? ''];
    if (members === undefined) return null;
    i += 2;
    let quantifier = '';
    const q = pattern[i];
    if (q === '+' || q === '*' || q === '?') {
      quantifier = q;
      i++;
      // A lazy or possessive form is left to re2js.
      if (pattern[i] === '?' || pattern[i] === '+') return null;
    }
    read.push({ members, quantifier });
  }
  // A match need not go further than it must: an optional class at the end adds nothing to whether
  // there is one, and a last `+` is satisfied by its first character.
  while (
    read.length > 0 &&
    read[read.length - 1]?.quantifier !== '+' &&
    read[read.length - 1]?.quantifier !== ''
  ) {
    read.pop();
  }
  const steps: Step[] = [];
  for (const [s, { members, quantifier }] of read.entries()) {
    if (quantifier === '*' || quantifier === '?') return null;
    steps.push({ members, many: quantifier === '+' && s < read.length - 1 });
  }
  return steps;
}

/** The code points a literal character matches case-insensitively (its simple case-folding orbit). */
function foldedMembers(char: string): Members {
  const c = char.charCodeAt(0);
  const lower = c | 0x20;
  if (lower < 97 || lower > 122) return (u) => u === c;
  const extra = lower === 107 ? KELVIN : lower === 115 ? LONG_S : -1;
  return (u) => ((u | 0x20) === lower && u < 128) || u === extra;
}

/** The code point at `at` and how many code units it takes (a lone surrogate is one code point). */
function codePointAt(text: string, at: number): number {
  const c = text.charCodeAt(at);
  if (c < 0xd800 || c > 0xdbff || at + 1 >= text.length) return c;
  const d = text.charCodeAt(at + 1);
  return d >= 0xdc00 && d <= 0xdfff ? (text.codePointAt(at) ?? c) : c;
}

/** Whether the steps match from `at` on (each `+` taking its whole run). */
function stepsMatch(text: string, at: number, steps: readonly Step[]): boolean {
  let pos = at;
  for (const { members, many } of steps) {
    if (pos >= text.length) return false;
    let c = codePointAt(text, pos);
    if (!members(c)) return false;
    pos += c > 0xffff ? 2 : 1;
    while (many && pos < text.length) {
      c = codePointAt(text, pos);
      if (!members(c)) break;
      pos += c > 0xffff ? 2 : 1;
    }
  }
  return true;
}

/**
 * A code unit as a literal of a decided pattern sees it: an ASCII capital as its small letter, the Kelvin
 * sign as `k` and the long s as `s` (the orbits of ASCII letters under simple case folding), anything
 * else as itself. Literals are ASCII, so a unit matches a literal character exactly when its folded form
 * is that character, folded.
 */
const foldUnit = (u: number): number =>
  u >= 65 && u <= 90 ? u | 32 : u === KELVIN ? 107 : u === LONG_S ? 115 : u;

/** The test of a decided pattern: whether `text` holds a match (what re2js's `find` answers). */
export function decidedTest(
  decided: DecidedPattern,
): (text: string) => boolean {
  const { start, end: after, steps } = decided;
  const alternatives = decided.alternatives.map((a) =>
    Int32Array.from(a, (c) => foldUnit(c.charCodeAt(0))),
  );
  // The folded first characters: most positions of a text start no alternative.
  // The code units (ASCII) that start an alternative, in both cases: one look-up rejects most positions.
  const starts = new Uint8Array(128);
  for (const a of alternatives) {
    const first = a[0] ?? 0;
    starts[first] = 1;
    if (first >= 97 && first <= 122) starts[first - 32] = 1;
  }
  const shortest = Math.min(...alternatives.map((a) => a.length));
  return (text) => {
    const last = start === 'text' ? 0 : text.length - shortest;
    for (let p = 0; p <= last; p++) {
      const unit = text.charCodeAt(p);
      if (unit < 128 ? starts[unit] === 0 : unit !== KELVIN && unit !== LONG_S)
        continue;
      const first = foldUnit(unit);
      if (!edgeHolds(text, p, start)) continue;
      for (const literal of alternatives) {
        const end = p + literal.length;
        if (end > text.length || literal[0] !== first) continue;
        let k = 1;
        while (
          k < literal.length &&
          literal[k] === foldUnit(text.charCodeAt(p + k))
        )
          k++;
        if (k < literal.length || !edgeHolds(text, end, after)) continue;
        if (stepsMatch(text, end, steps)) return true;
      }
    }
    return false;
  };
}

/** Whether the assertion holds at `at` (re2js: `\\b` compares the code units on either side). */
function edgeHolds(text: string, at: number, edge: Edge): boolean {
  if (edge === 'none') return true;
  // `^` only ever asks at 0, where it holds; `$` asks at the end of the literals.
  if (edge === 'text') return at === 0 || at === text.length;
  const before = at > 0 && isWordUnit(text.charCodeAt(at - 1));
  const after = at < text.length && isWordUnit(text.charCodeAt(at));
  return (before !== after) === (edge === 'word');
}
