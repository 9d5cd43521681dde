/**
 * How the server asks V8 to manage its heap, set once when a server process starts (`serve.ts`), so
 * that the process stays near `CACHE_BYTES` plus its base however its caches churn:
 *
 * - `--no-allocation-site-pretenuring`. Once most objects made at one place in the code outlive their
 *   first collections, V8 allocates every later object from that place directly in the old generation.
 *   The server's caches are exactly such survivors (parsed configs, search indexes), so after the cache
 *   has filled, every version a search reads beyond the cache was born old, and only a full collection
 *   freed it: with 5,000 configs and the default `CACHE_BYTES`, three searches that read every config
 *   left a 700 MiB process whose caches held 188 MB. Without pretenuring those versions die young, as
 *   they are: the same searches left 313 MiB and were no slower.
 * - `--heap-growing-percent=50`. After a full collection V8 lets the old generation grow by a factor
 *   it picks from its recent speed, up to four times what was live; this fixes it at one and a half.
 *   With 200 configs of 500 links (a versions cache near full), RSS after the scale benchmark's searches
 *   went from 517 MiB (V8's choice) to 404–423 (twice) and 371 (one and a half); with 10,000 configs of
 *   50 links, from 480 (twice) to 402 MiB, within `CACHE_BYTES` + base + the in-flight allowance.
 *
 * Neither changed the CPU time per request of the benchmark's main scenarios beyond run-to-run noise.
 */
import { setFlagsFromString } from 'node:v8';

/** The V8 flags {@link tuneHeap} sets. */
export const HEAP_FLAGS = [
  '--no-allocation-site-pretenuring',
  '--heap-growing-percent=50',
] as const;

/**
 * Sets {@link HEAP_FLAGS} in this process. V8 reads both whenever it decides (about pretenuring, about the
 * next limit after a full collection), so setting them after start takes effect: `heap.test.ts` checks
 * that each does, in a plain Node process. Call it before the server allocates its data.
 */
export function tuneHeap(): void {
  for (const flag of HEAP_FLAGS) setFlagsFromString(flag);
}
