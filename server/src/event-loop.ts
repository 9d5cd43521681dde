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
