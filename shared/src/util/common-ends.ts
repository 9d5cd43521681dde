/**
 * How much two texts share at their start and at their end, compared in whole slices first (a slice
 * comparison runs natively; a few large ones cost fewer allocations than many small ones). The history's
 * delta (`revision-content.ts` in the server) and a PUT read as an edit of the stored text
 * (`sync/link-text-edit.ts`) both cut two texts this way.
 */

/** Units compared at once, largest first. */
const STEPS = [16_384, 1024, 64] as const;

/** How many UTF-16 units `a` and `b` share at their start, at most `max`. */
export function commonHead(a: string, b: string, max: number): number {
  let n = 0;
  for (const step of STEPS) {
    while (n + step <= max && a.slice(n, n + step) === b.slice(n, n + step)) {
      n += step;
    }
  }
  while (n < max && a.charCodeAt(n) === b.charCodeAt(n)) n++;
  return n;
}

/** How many UTF-16 units `a` and `b` share at their end, at most `max`. */
export function commonTail(a: string, b: string, max: number): number {
  let n = 0;
  const ea = a.length;
  const eb = b.length;
  for (const step of STEPS) {
    while (
      n + step <= max &&
      a.slice(ea - n - step, ea - n) === b.slice(eb - n - step, eb - n)
    ) {
      n += step;
    }
  }
  while (n < max && a.charCodeAt(ea - 1 - n) === b.charCodeAt(eb - 1 - n)) {
    n++;
  }
  return n;
}
