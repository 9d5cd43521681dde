/**
 * The page's state as a small store that says when it changed: reading through {@link Reactive.state}
 * hands out views (proxies) of its plain objects and arrays, and every write through a view calls
 * `changed` (the page renders at the next microtask, so many writes make one render). Nobody calls a
 * render after changing the state.
 *
 * The tree itself only ever holds plain values, never views: a write unwraps what it is given. So what
 * {@link Reactive.raw} takes out can be cloned, stored in IndexedDB or posted.
 */

/** A state tree and its unwrapping. */
export interface Reactive<T extends object> {
  /** The state; change it in place. */
  readonly state: T;
  /** The plain value behind a view (any other value as it is). */
  raw<V>(value: V): V;
}

/** Wraps `tree`; `changed` is called after every write that changed something. */
export function reactive<T extends object>(
  tree: T,
  changed: () => void,
): Reactive<T> {
  const views = new WeakMap<object, object>();
  const targets = new WeakMap<object, object>();

  const raw = <V>(value: V): V => {
    if (typeof value !== 'object' || value === null) return value;
    const target = targets.get(value);
    if (target) return target as V;
    // A fresh object may hold views it was built from (a spread draft): unwrap them in place.
    if (isPlain(value)) {
      const record = value as Record<string, unknown>;
      for (const key of Object.keys(record)) {
        const inner = record[key];
        const plain = raw(inner);
        if (plain !== inner) record[key] = plain;
      }
    }
    return value;
  };

  const view = (target: object): object => {
    const known = views.get(target);
    if (known) return known;
    const proxy = new Proxy(target, {
      get(t, key, receiver) {
        const value: unknown = Reflect.get(t, key, receiver);
        return isPlain(value) ? view(value) : value;
      },
      set(t, key, value) {
        const next = raw(value);
        const before: unknown = Reflect.get(t, key);
        if (before === next && Object.hasOwn(t, key)) return true;
        const done = Reflect.set(t, key, next);
        changed();
        return done;
      },
      deleteProperty(t, key) {
        const had = Object.hasOwn(t, key);
        const done = Reflect.deleteProperty(t, key);
        if (had) changed();
        return done;
      },
    });
    views.set(target, proxy);
    targets.set(proxy, target);
    return proxy;
  };

  return { state: view(tree) as T, raw };
}

/** A plain object or array that is not frozen (a frozen one cannot be changed, so needs no view). */
function isPlain(value: unknown): value is object {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value))
    return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return Array.isArray(value) || proto === Object.prototype || proto === null;
}
