/**
 * What the parts of a cached config version keep alive, in bytes, as a function of its JSON text
 * (characters, and 1 or 2 bytes per character as V8 stores the strings) and its number of links.
 *
 * The factors are measured, not guessed: `weights.test.ts` builds every part for configs of several
 * shapes (`measure-weights.ts`: typical links, tiny links, non-Latin text, long texts) in a child process
 * with `--expose-gc`, reads the heap growth, and fails when an estimate here falls below what was measured
 * (or is far above it). The factors were fitted on the link-heavy shapes with a 10 % margin; shapes with
 * few, long strings come out overestimated (safe: the cache then holds less than it could). Rerun the
 * test after changing a part's structure.
 */

/** Per-part factors: bytes per JSON character (times the character width) plus bytes per link. */
export const PART_WEIGHTS = {
  /** The object overhead of a cached version and its cache slot. */
  fixed: 8192,
  /** `JSON.parse` of the stored text. */
  stored: { perChar: 1.65, perLink: 90 },
  /**
   * The sanitized entry's copies of links whose URLs changed (every link, at worst); nothing when no URL
   * changed, since the entry then shares the stored config.
   */
  entry: { perChar: 0, perLink: 210 },
  /** The engine's prepared form plus the working data the engine builds on it over time. */
  prepared: { perChar: 1.85, perLink: 225 },
  /** The search index (haystack, offsets, trigram signatures, tag map, each link's JSON text). */
  searchIndex: { perChar: 3.25, perLink: 225 },
} as const;

/** A part of a cached version that has a measured weight. */
export type WeighedPart = Exclude<keyof typeof PART_WEIGHTS, 'fixed'>;

/** The size of a config's JSON text as the factors need it. */
export interface JsonShape {
  readonly chars: number;
  readonly width: 1 | 2;
  readonly links: number;
}

/** Estimated bytes kept alive by `part` of a config of this shape. */
export function partWeight(part: WeighedPart, shape: JsonShape): number {
  const factor = PART_WEIGHTS[part];
  return Math.ceil(
    shape.chars * shape.width * factor.perChar + shape.links * factor.perLink,
  );
}
