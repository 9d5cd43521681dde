import { DomainError } from '../errors.js';
import { Permits } from '../permits.js';

/**
 * Configs read from storage, and worked on, at once by the requests that walk many configs (`/search`,
 * the link-health listing). Such a version is not in the versions' cache, so no budget of `CACHE_BYTES`
 * weighs it: its stored text, parsed config and search index are the request's working memory until the
 * cache admits or drops it. Sixteen regex searches at once, each reading some 2,700 configs, had sixteen
 * such versions in the works at a time and RSS reached 473–480 MiB at 10,000 configs against a bound of
 * 413 MiB; with these permits it was 380–395 MiB. With a permit per version read, that memory is at most
 * this many versions, whatever the number of requests.
 *
 * Two: the event loop does the reading and indexing on one thread, so a second holder only helps while
 * the first waits (a PostgreSQL read, a large config indexed in slices, each slice letting other requests
 * in); a third would only add a third version's memory. Versions found in the cache need no permit: most
 * searches, which stop at their `limit` among the configs read first, never wait.
 */
export const SCAN_PERMITS = 2;

/**
 * Requests waiting for a scan permit at once; the next one is answered 503 with `Retry-After`. A waiting
 * request keeps only what it found so far (at most its `limit` of links), so the bound is about waiting
 * time: each permit comes back after one config, and a request beyond four times the benchmark's sixteen
 * connections would wait for more than 64 configs' work per config it reads.
 */
export const SCAN_WAITING = 64;

/** The scan permits of one server (shared by the draft and published views: the memory is one process's). */
export function scanPermits(): Permits {
  return new Permits(SCAN_PERMITS, SCAN_WAITING);
}

/** What the OpenAPI document says of a 503 from a route that reads configs under scan permits. */
export const SCAN_BUSY_RESPONSE =
  'Other requests are reading many configs from storage; retry after `Retry-After` seconds';

/** One request's turns at the scan permits: each call waits for a permit for one version read from storage. */
export type ScanTurns = () => Promise<(() => void) | undefined>;

/**
 * The turns of one request at `permits` (release each once done with that version); without `permits`,
 * none is needed. The queue's bound is checked at the request's first turn only: once let in, a request
 * waits for its later turns however many others wait, so work half done is never thrown away (and the
 * waiters stay bounded, as new requests are refused while the queue is full). A turn throws the `busy`
 * error (503) when the first one finds the queue full, or when `signal` aborts first (the client went
 * away; nobody reads that answer).
 */
export function scanTurns(
  permits: Permits | undefined,
  signal: AbortSignal | undefined,
): ScanTurns {
  let admitted = false;
  return async () => {
    if (permits === undefined) return undefined;
    const release = await permits.acquire({
      admitted,
      ...(signal === undefined ? {} : { signal }),
    });
    if (release === undefined) {
      throw new DomainError(
        'busy',
        'the server is busy with other searches over many configs; retry shortly',
      );
    }
    admitted = true;
    return release;
  };
}
