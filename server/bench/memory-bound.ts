/**
 * The memory bound a benchmark run is checked against (issue 23, item 4): RSS after the run ≤
 * `CACHE_BYTES` + the documented base + an in-flight allowance, per server process. The base and the
 * allowance are named here and explained in docs/benchmarks.md (memory after the main run).
 */
import { partWeight } from '../src/versions/weights.js';

const MiB = 1024 ** 2;

/**
 * The documented base: the RSS of our server started on an empty database, before any config is
 * loaded (98–102 MiB measured with Node 20 on the 2-core test machine), rounded up with some 10 %.
 */
export const MEMORY_BASE_BYTES = 112 * MiB;

/**
 * V8's young generation at its default maximum on 64-bit Node 20: two semi-spaces of 16 MiB, which it
 * fills under allocation pressure before collecting.
 */
export const YOUNG_GENERATION_BYTES = 32 * MiB;

/**
 * The working memory of one request whose body (or answer) is `bodyBytes` of JSON: the bytes and their
 * text, the parsed config and its prepared form, weighed with the factors measured for the caches.
 */
export function requestWorkingBytes(bodyBytes: number): number {
  const shape = {
    chars: bodyBytes,
    width: 1 as const,
    links: Math.round(bodyBytes / 240),
  };
  return (
    2 * bodyBytes + partWeight('stored', shape) + partWeight('prepared', shape)
  );
}

/** What the bound of a run is made of. */
export interface BoundInput {
  /** `CACHE_BYTES` of each server process. */
  cacheBytes: number;
  /** Server processes (`WORKERS`); with more than one, the primary adds one more base. */
  workers: number;
  /** Requests in flight at once (the load generator's connections). */
  connections: number;
  /** The largest body or answer of the run, bytes. */
  largestBodyBytes: number;
}

/** The in-flight allowance: each process's young generation, and every connection's request at once. */
export function inFlightAllowanceBytes(input: BoundInput): number {
  return (
    input.workers * YOUNG_GENERATION_BYTES +
    input.connections * requestWorkingBytes(input.largestBodyBytes)
  );
}

/**
 * The bound: per process `CACHE_BYTES` + the base, the primary's base when there are workers, plus the
 * in-flight allowance.
 */
export function memoryBoundBytes(input: BoundInput): number {
  const processes = input.workers > 1 ? input.workers + 1 : 1;
  return (
    input.workers * input.cacheBytes +
    processes * MEMORY_BASE_BYTES +
    inFlightAllowanceBytes(input)
  );
}

const mb = (n: number) => `${(n / MiB).toFixed(0)} MiB`;

/** The report's "Memory bound" line: the RSS after the run against the bound, and its parts. */
export function describeMemoryBound(
  rssBytes: number | null,
  input: BoundInput,
): string {
  const bound = memoryBoundBytes(input);
  const processes = input.workers > 1 ? `${input.workers} × ` : '';
  const primary = input.workers > 1 ? ' (and the primary’s base)' : '';
  const parts =
    `${processes}(CACHE_BYTES ${mb(input.cacheBytes)} + base ${mb(MEMORY_BASE_BYTES)})${primary}` +
    ` + in-flight allowance ${mb(inFlightAllowanceBytes(input))} = ${mb(bound)}`;
  const verdict =
    rssBytes === null
      ? 'RSS n/a'
      : rssBytes <= bound
        ? `RSS ${mb(rssBytes)}: within`
        : `RSS ${mb(rssBytes)}: OVER by ${mb(rssBytes - bound)}`;
  return `Memory bound after the run: ${parts}; ${verdict}.`;
}
