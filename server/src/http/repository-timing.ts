import type { Metrics } from './metrics.js';

/** Calls that are not queries: `changeToken` is a synchronous in-memory check, `close` ends the pool. */
const UNTIMED = new Set<PropertyKey>(['changeToken', 'close', 'constructor']);

const isPromise = (value: unknown): value is Promise<unknown> =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as { then?: unknown }).then === 'function';

/**
 * The same repository, with the time of every asynchronous call recorded as database query latency
 * (`linkconfig_db_query_duration_seconds{operation}`). It is measured around each repository call, so a
 * call's time covers its SQL statements and the driver's work (one statement for most calls). A proxy rather
 * than a wrapper class, so methods the storage module adds later are timed without a change here.
 */
export function timeRepository<R extends object>(
  repository: R,
  metrics: Pick<Metrics, 'observeQuery'>,
): R {
  const timed = new Map<PropertyKey, unknown>();
  return new Proxy(repository, {
    get(target, key) {
      const value: unknown = Reflect.get(target, key, target);
      if (
        typeof value !== 'function' ||
        typeof key !== 'string' ||
        UNTIMED.has(key)
      ) {
        return value;
      }
      let wrapper = timed.get(key);
      if (wrapper === undefined) {
        const method = value as (...args: unknown[]) => unknown;
        wrapper = (...args: unknown[]): unknown => {
          const started = performance.now();
          const result = method.apply(target, args);
          if (!isPromise(result)) return result;
          const done = (ok: boolean) =>
            metrics.observeQuery(key, (performance.now() - started) / 1000, ok);
          return result.then(
            (resolved) => {
              done(true);
              return resolved;
            },
            (error: unknown) => {
              done(false);
              throw error;
            },
          );
        };
        timed.set(key, wrapper);
      }
      return wrapper;
    },
  });
}
