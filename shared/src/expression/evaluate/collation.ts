/**
 * The one fixed collation of the engine (D4): `*sort*` and search `sort: "alpha"` compare with it, so
 * results do not depend on the process locale.
 */
const collator = new Intl.Collator('en');

/** Compares two texts with the fixed `en` collation (case and accents are secondary differences). */
export function compareText(a: string, b: string): number {
  return collator.compare(a, b);
}
