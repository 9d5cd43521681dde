/**
 * Config-name patterns of access keys: `*` matches any run of characters (`/` included, possibly
 * empty); every other character matches itself. A pattern is read as its literal pieces between stars:
 * the first must start the name, the last must end it, and the ones between are found left to right,
 * each at its first place after the previous one (the first place is always the best one, so nothing is
 * ever tried twice). Each piece is found with a Knuth–Morris–Pratt scan, so matching a name costs at
 * most about twice the name's length plus the pattern's: a hostile pattern cannot stall a request.
 */

/** A pattern read once: its pieces between stars, each with its KMP failure table. */
export class NamePattern {
  readonly source: string;
  /** The literal pieces between stars; one piece (the whole pattern) when it has no star. */
  readonly #pieces: readonly string[];
  readonly #tables: readonly Int32Array[];
  /** Characters compared so far by {@link matches} (a cost meter: tests bound it). */
  comparisons = 0;

  constructor(source: string) {
    this.source = source;
    this.#pieces = source.split('*');
    this.#tables = this.#pieces.map(failureTable);
  }

  /** Whether the pattern matches `name`. */
  matches(name: string): boolean {
    const pieces = this.#pieces;
    const last = pieces.length - 1;
    const head = pieces[0] ?? '';
    if (last === 0) {
      return head.length === name.length && this.#equalAt(name, head, 0);
    }
    const tail = pieces[last] ?? '';
    const end = name.length - tail.length;
    if (end < head.length) return false;
    if (!this.#equalAt(name, head, 0) || !this.#equalAt(name, tail, end)) {
      return false;
    }
    let at = head.length;
    for (let i = 1; i < last; i++) {
      const piece = pieces[i] ?? '';
      if (piece === '') continue;
      const found = this.#find(name, i, at);
      if (found < 0) return false;
      at = found + piece.length;
    }
    return true;
  }

  /** Whether `piece` stands in `name` at `at`. */
  #equalAt(name: string, piece: string, at: number): boolean {
    if (at + piece.length > name.length) return false;
    for (let k = 0; k < piece.length; k++) {
      this.comparisons++;
      if (name.charCodeAt(at + k) !== piece.charCodeAt(k)) return false;
    }
    return true;
  }

  /**
   * Where piece `i` first lies wholly after `from` and before the last piece's place at the end of `name`,
   * or -1 (KMP: linear in both).
   */
  #find(name: string, i: number, from: number): number {
    const piece = this.#pieces[i] ?? '';
    const table = this.#tables[i] ?? new Int32Array(0);
    const end = name.length - (this.#pieces.at(-1)?.length ?? 0);
    let matched = 0;
    for (let n = from; n < end; n++) {
      const c = name.charCodeAt(n);
      this.comparisons++;
      while (matched > 0 && piece.charCodeAt(matched) !== c) {
        this.comparisons++;
        matched = table[matched - 1] ?? 0;
      }
      if (piece.charCodeAt(matched) === c) matched++;
      if (matched === piece.length) return n - matched + 1;
    }
    return -1;
  }
}

/** The KMP failure table of `piece`: per prefix, the longest proper prefix that is also its suffix. */
function failureTable(piece: string): Int32Array {
  const table = new Int32Array(piece.length);
  let k = 0;
  for (let i = 1; i < piece.length; i++) {
    const c = piece.charCodeAt(i);
    while (k > 0 && piece.charCodeAt(k) !== c) k = table[k - 1] ?? 0;
    if (piece.charCodeAt(k) === c) k++;
    table[i] = k;
  }
  return table;
}

/**
 * A list of patterns read once (a key's, or what anyone may read): whether any matches a name, and what
 * the matching has cost so far.
 */
export class NamePatterns {
  readonly #patterns: readonly NamePattern[];
  /** Whether a pattern is `*` alone: every name matches. */
  readonly matchesAll: boolean;

  constructor(sources: readonly string[]) {
    this.matchesAll = sources.includes('*');
    this.#patterns = this.matchesAll
      ? []
      : sources.map((source) => new NamePattern(source));
  }

  /** Whether any of the patterns matches `name`. */
  matches(name: string): boolean {
    if (this.matchesAll) return true;
    for (const pattern of this.#patterns)
      if (pattern.matches(name)) return true;
    return false;
  }

  /** Characters compared so far by {@link matches}, over all the patterns. */
  get comparisons(): number {
    let sum = 0;
    for (const pattern of this.#patterns) sum += pattern.comparisons;
    return sum;
  }
}

/** Whether `pattern` matches `name`. */
export function nameMatches(pattern: string, name: string): boolean {
  return new NamePattern(pattern).matches(name);
}

/** Whether any of the patterns matches the name. */
export function anyNameMatches(
  patterns: readonly string[],
  name: string,
): boolean {
  for (const pattern of patterns) if (nameMatches(pattern, name)) return true;
  return false;
}

/**
 * Whether every name `inner` matches is matched by `outer` too. `outer` must then match `inner` itself
 * read as a name, each `*` of `inner` a character that only a `*` of `outer` can stand for (no literal
 * character of a pattern is a `*`): a star of `outer` that covers a star of `inner` covers whatever that
 * star stands for. The converse holds too, since a name may hold a character `outer` never uses. Linear
 * in the two lengths, as matching is.
 */
export function patternWithin(inner: string, outer: string): boolean {
  return nameMatches(outer, inner);
}

/**
 * Whether each of `inner` lies within one of `outer` ({@link patternWithin}), so a key with the patterns
 * `inner` can never reach a name that `outer` does not. A pattern covered only by several of `outer`
 * together counts as outside (the cautious answer).
 */
export function patternsWithin(
  inner: readonly string[],
  outer: readonly string[],
): boolean {
  return inner.every((p) => outer.some((q) => patternWithin(p, q)));
}
