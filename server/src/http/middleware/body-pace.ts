import type { Context } from 'hono';
import { nodeBindings } from '../client-address.js';
import { HttpError } from '../http-error.js';

/** How long a body may take to start arriving before the floor applies. */
export const BODY_GRACE_MS = 1000;

/** Counts the bytes a request's connection has received, from when it is called. */
export type BodyProgress = () => () => number;

/**
 * The progress of this request's body, from Node's socket (its bytes read, headers of later requests on
 * the connection included: a few bytes of slack), or `undefined` when the request did not come through
 * Node's HTTP server (`app.request` in tests: the body is already in memory).
 */
export function bodyProgress(c: Context): BodyProgress | undefined {
  const socket = nodeBindings(c)?.incoming?.socket;
  if (socket === undefined) return undefined;
  return () => {
    const start = socket.bytesRead;
    return () => socket.bytesRead - start;
  };
}

/**
 * Waits for `read` (the reading of a body) while the body keeps coming at the floor of `rate` bytes per
 * second (0: none): `t` ms after the start at least `rate × (t − grace)` bytes must have arrived.
 * Otherwise it rejects at once with 408 and `Connection: close`, so a client that trickles its body
 * holds a body permit (and a socket) for about a second, not until the request timeout. Checks run only
 * when a shortfall could have begun: a timer per slow body, none for a body read within the grace period.
 */
export function paced<T>(
  read: Promise<T>,
  rate: number,
  progress: BodyProgress | undefined,
): Promise<T> {
  if (rate <= 0 || progress === undefined) return read;
  const received = progress();
  const start = performance.now();
  return new Promise<T>((resolve, reject) => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const check = (): void => {
      // The moment by which what has arrived stops being enough.
      const due = start + BODY_GRACE_MS + (received() / rate) * 1000;
      const now = performance.now();
      if (now < due) {
        timer = setTimeout(check, due - now);
        return;
      }
      // The read goes on until the connection closes; its outcome no longer matters.
      read.catch(() => undefined);
      reject(
        new HttpError(
          408,
          `the request body arrived slower than ${rate} bytes per second; send it faster`,
          { Connection: 'close' },
        ),
      );
    };
    timer = setTimeout(check, BODY_GRACE_MS);
    read.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error as Error);
      },
    );
  });
}
