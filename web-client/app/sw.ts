/**
 * The page's service worker: keeps the app shell (index.html and its assets) so the page opens even
 * when the server is stopped or the browser is offline. Network first, cache as the fallback; API
 * requests are never touched (the stores handle those, with their own offline rules).
 */

/** The parts of the service-worker global scope used here (the project compiles with the DOM lib). */
interface ExtendableEvent extends Event {
  waitUntil(promise: Promise<unknown>): void;
}
interface FetchEvent extends ExtendableEvent {
  readonly request: Request;
  respondWith(response: Promise<Response>): void;
}
interface ServiceWorkerScope {
  addEventListener(
    type: 'install' | 'activate',
    listener: (event: ExtendableEvent) => void,
  ): void;
  addEventListener(type: 'fetch', listener: (event: FetchEvent) => void): void;
  skipWaiting(): Promise<void>;
  readonly clients: { claim(): Promise<void> };
  readonly location: Location;
}

const scope = self as unknown as ServiceWorkerScope;
const CACHE = 'linkconfig-shell-v1';
/**
 * The REST API's paths, from the server's route table (set by `scripts/build-app.ts`), and the server's
 * other own paths: always left to the network.
 */
declare const __API_PATH_PATTERN__: string;
const API_PATH = new RegExp(__API_PATH_PATTERN__);
const SERVER_PATH =
  /^\/(?:events|healthz|metrics|trpc|openapi\.json|docs)(?:\/|$)/;

/** Caches index.html and every asset it references. */
async function precache(): Promise<void> {
  const cache = await caches.open(CACHE);
  const response = await fetch('/', { cache: 'no-store' });
  if (!response.ok) return;
  const html = await response.clone().text();
  await cache.put('/', response);
  const assets = [...html.matchAll(/(?:src|href)="(\/assets\/[^"]+)"/g)]
    .map((match) => match[1])
    .filter((path): path is string => path !== undefined);
  await cache.addAll(assets);
  // Assets of earlier builds are no longer referenced: drop them.
  for (const request of await cache.keys()) {
    const path = new URL(request.url).pathname;
    if (path.startsWith('/assets/') && !assets.includes(path))
      await cache.delete(request);
  }
}

/** The network's answer, kept for later; the cached copy when the network fails. */
async function networkFirst(request: Request): Promise<Response> {
  const cache = await caches.open(CACHE);
  // Every page path is the same single-page app: keep it under '/'.
  const key = request.mode === 'navigate' ? '/' : request;
  try {
    const response = await fetch(request);
    if (response.ok) await cache.put(key, response.clone());
    return response;
  } catch (error) {
    // The server varies responses on Origin; any cached copy of the shell will do.
    const cached = await cache.match(key, { ignoreVary: true });
    if (cached) return cached;
    throw error;
  }
}

scope.addEventListener('install', (event) => {
  event.waitUntil(precache().then(() => scope.skipWaiting()));
});

scope.addEventListener('activate', (event) => {
  event.waitUntil(scope.clients.claim());
});

scope.addEventListener('fetch', (event) => {
  const url = new URL(event.request.url);
  if (
    event.request.method !== 'GET' ||
    url.origin !== scope.location.origin ||
    API_PATH.test(url.pathname) ||
    SERVER_PATH.test(url.pathname)
  )
    return;
  event.respondWith(networkFirst(event.request));
});
