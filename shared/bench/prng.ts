/**
 * The seeded pseudo-random generator of the benchmarks (mulberry32): the same seed always gives the same
 * data, on every machine. Test data only, not for cryptography.
 */

/** A source of uniform numbers in [0, 1). */
export type Random = () => number;

/**
 * mulberry32: a 32-bit state generator.
 *
 * @example
 * const rnd = mulberry32(42);
 * rnd(); // 0.6011037519201636, every time
 */
export function mulberry32(seed: number): Random {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}
