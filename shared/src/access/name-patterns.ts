/**
 * Config-name patterns of access keys: `*` matches any run of characters (`/` included, possibly
 * empty); every other character matches itself. Matching is linear in practice (greedy with one
 * backtrack point, no regular expression), so a hostile pattern cannot stall a request.
 */
export function nameMatches(pattern: string, name: string): boolean {
  let p = 0;
  let n = 0;
  let star = -1;
  let resume = 0;
  while (n < name.length) {
    if (p < pattern.length && pattern[p] === '*') {
      star = p++;
      resume = n;
    } else if (p < pattern.length && pattern[p] === name[n]) {
      p++;
      n++;
    } else if (star >= 0) {
      p = star + 1;
      n = ++resume;
    } else {
      return false;
    }
  }
  while (p < pattern.length && pattern[p] === '*') p++;
  return p === pattern.length;
}

/** Whether any of the patterns matches the name. */
export function anyNameMatches(
  patterns: readonly string[],
  name: string,
): boolean {
  for (const pattern of patterns) if (nameMatches(pattern, name)) return true;
  return false;
}
