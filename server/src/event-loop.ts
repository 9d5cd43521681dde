import type { SliceOptions } from '@linkconfig/shared';

/**
 * How work on a large config (the fidelity scan of its JSON text, its preparation for the engine) shares
 * the event loop with other requests (issue 17, item 7): it runs in slices of about 10 ms and, between
 * two, lets every pending I/O callback run (`setImmediate`), so a cheap request waits for one slice, not
 * for the whole config.
 */
export const EVENT_LOOP_SLICES: SliceOptions = {
  sliceMs: 10,
  pause: () => new Promise<void>((resolve) => setImmediate(resolve)),
};

/**
 * From this many characters of JSON text, a version made by a write keeps the value the write parsed
 * (`ConfigService`), so its first read does not parse the text again in one piece: about 4 ms of
 * `JSON.parse` per MiB on a quiet machine, several times that on a busy one, against the
 * {@link EVENT_LOOP_SLICES} slice of 10 ms. A smaller text is parsed again on its first read: keeping
 * every written value alive until the version leaves the cache costs more (the garbage collector copies
 * and promotes it; 15 % of the instructions of a 120 KiB `PUT` under 16 connections).
 */
export const KEEP_PARSED_MIN_CHARS = 1024 * 1024;

/**
 * Below this many characters of JSON text, a `PATCH` of some links is worked out on the stored text at
 * once (`services/patched-config.ts`); from it, on the parsed value in slices. The text path's first
 * use on a version (a parse and a serialization to check the text is canonical, and a scan for where
 * its links sit) then stays within about one {@link EVENT_LOOP_SLICES} slice on a quiet machine.
 */
export const TEXT_PATCH_MAX_CHARS = 512 * 1024;
