/** How often a long stream asks whether its caller's key still holds, in ms. */
export const ACCESS_RECHECK_MS = 500;

/**
 * Asks `stillValid` every {@link ACCESS_RECHECK_MS} while a stream is open and calls `lost` once when the
 * answer turns `false` (a key revoked or expired since the stream opened): with keys kept at most
 * 500 ms, a revoked key's open streams end within about a second on every instance. Returns the stop.
 */
export function watchAccess(
  stillValid: () => Promise<boolean>,
  lost: () => void,
): () => void {
  let stopped = false;
  const timer = setInterval(() => {
    stillValid().then(
      (valid) => {
        if (valid || stopped) return;
        stop();
        lost();
      },
      // Storage failing is no proof the key is gone; the next check decides.
      () => undefined,
    );
  }, ACCESS_RECHECK_MS);
  timer.unref();
  const stop = (): void => {
    stopped = true;
    clearInterval(timer);
  };
  return stop;
}
