/**
 * The Link Config web page: manage configs through an offline-first hybrid store (IndexedDB plus the
 * server's REST API on this origin), run expressions and search. The page itself is kept by a service
 * worker, so it also opens offline.
 */
// First: zod is set up for the CSP before any other module of the page runs.
import { zodSettings } from './strict-csp.js';
import { App } from './app.js';

if (zodSettings.jitless !== true) {
  throw new Error('zod must run without compiled parsers under the CSP');
}

/** Registers the service worker that keeps the page itself available offline. */
function registerServiceWorker(): void {
  if (!('serviceWorker' in navigator)) return;
  navigator.serviceWorker.register('/sw.js').catch(() => {
    // Not available (blocked, or not a secure context): the page still works, only not from cache.
  });
}

registerServiceWorker();
const root = document.getElementById('app');
if (root) void new App(root).start();
