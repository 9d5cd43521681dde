/**
 * Telling a caller the moment its request leaves: undici calls a dispatch handler's `onRequestStart`
 * once the connection is set up, the guard has passed it and the request's turn in the client's queue has
 * come, and then, in the same synchronous run, writes the request's head to the socket. The caller is told
 * in a microtask queued at `onRequestStart`: it runs only once that run has ended, so after the write,
 * even when the process is paused by the system between the two (a loaded machine does that for tens of
 * milliseconds). A handler that wraps the request's own does it and passes everything on. The callback
 * belongs to the one request (it travels in its dispatcher), so nothing is kept anywhere about requests.
 */
import type { Dispatcher } from 'undici';

/** Passes every event on to `inner`, and calls `onSent` when the request is written. */
class SentSignal implements Dispatcher.DispatchHandler {
  readonly #inner: Dispatcher.DispatchHandler;
  readonly #onSent: () => void;

  constructor(inner: Dispatcher.DispatchHandler, onSent: () => void) {
    this.#inner = inner;
    this.#onSent = onSent;
  }

  onRequestStart(
    controller: Dispatcher.DispatchController,
    context: unknown,
  ): void {
    this.#inner.onRequestStart?.(controller, context);
    // Aborted at the last moment (its time ran out): nothing is written.
    if (!controller.aborted) queueMicrotask(this.#onSent);
  }

  onRequestUpgrade(
    ...args: Parameters<
      NonNullable<Dispatcher.DispatchHandler['onRequestUpgrade']>
    >
  ): void {
    this.#inner.onRequestUpgrade?.(...args);
  }

  onResponseStart(
    ...args: Parameters<
      NonNullable<Dispatcher.DispatchHandler['onResponseStart']>
    >
  ): void {
    this.#inner.onResponseStart?.(...args);
  }

  onResponseData(
    ...args: Parameters<
      NonNullable<Dispatcher.DispatchHandler['onResponseData']>
    >
  ): void {
    this.#inner.onResponseData?.(...args);
  }

  onResponseEnd(
    ...args: Parameters<
      NonNullable<Dispatcher.DispatchHandler['onResponseEnd']>
    >
  ): void {
    this.#inner.onResponseEnd?.(...args);
  }

  onResponseError(
    ...args: Parameters<
      NonNullable<Dispatcher.DispatchHandler['onResponseError']>
    >
  ): void {
    this.#inner.onResponseError?.(...args);
  }
}

/** `dispatcher`, for one request whose sending `onSent` is told of. */
export function tellingSent(
  dispatcher: Dispatcher,
  onSent: () => void,
): Dispatcher {
  return dispatcher.compose(
    (dispatch) => (options, handler) =>
      dispatch(options, new SentSignal(handler, onSent)),
  );
}
