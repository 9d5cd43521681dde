/**
 * How far apart two names are, counted in single-character edits (insert, delete, replace: the
 * Levenshtein distance), and the names of a list closest to a given one, for "did you mean" hints.
 * Compared by UTF-16 code unit and case-sensitively, as names are matched everywhere else.
 */

/**
 * The edit distance between `a` and `b`. With `max`, the count stops early: any distance above `max`
 * is answered as `max + 1`.
 */
export function editDistance(a: string, b: string, max = Infinity): number {
  if (a === b) return 0;
  if (Math.abs(a.length - b.length) > max) return max + 1;
  // One row of the table at a time: previous[j] is the distance between a[0, i) and b[0, j).
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a.charCodeAt(i - 1) === b.charCodeAt(j - 1) ? 0 : 1;
      const value = Math.min(
        (previous[j] ?? 0) + 1,
        (current[j - 1] ?? 0) + 1,
        (previous[j - 1] ?? 0) + cost,
      );
      current.push(value);
      if (value < best) best = value;
    }
    if (best > max) return max + 1;
    previous = current;
  }
  const distance = previous[b.length] ?? 0;
  return distance > max ? max + 1 : distance;
}

/**
 * The names of `candidates` at most `maxDistance` edits from `name` (never `name` itself), closest
 * first, then in the candidates' order; at most `limit` of them.
 */
export function closestNames(
  name: string,
  candidates: Iterable<string>,
  options: { maxDistance: number; limit?: number },
): string[] {
  const found: { candidate: string; distance: number; index: number }[] = [];
  let index = 0;
  for (const candidate of candidates) {
    if (candidate !== name) {
      const distance = editDistance(name, candidate, options.maxDistance);
      if (distance <= options.maxDistance)
        found.push({ candidate, distance, index });
    }
    index++;
  }
  return found
    .sort((x, y) => x.distance - y.distance || x.index - y.index)
    .slice(0, options.limit ?? 3)
    .map((entry) => entry.candidate);
}
