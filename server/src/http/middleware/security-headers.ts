import type { Context, MiddlewareHandler } from 'hono';
import { HttpError } from '../http-error.js';

/**
 * The Content-Security-Policy of every response. The web page (`/`, its service worker) and the API docs
 * (`/docs`, Swagger UI from `/docs/assets`) load scripts, styles and data only from this origin, so one
 * policy fits both and the JSON answers too: nothing inline, nothing from elsewhere, no framing. Images
 * may be `data:` URLs (the page's empty favicon, Swagger UI's icons).
 */
export const CONTENT_SECURITY_POLICY: Readonly<Record<string, string[]>> = {
  defaultSrc: ["'self'"],
  scriptSrc: ["'self'"],
  styleSrc: ["'self'"],
  imgSrc: ["'self'", 'data:'],
  fontSrc: ["'self'"],
  connectSrc: ["'self'"],
  workerSrc: ["'self'"],
  manifestSrc: ["'self'"],
  objectSrc: ["'none'"],
  baseUri: ["'none'"],
  formAction: ["'self'"],
  frameAncestors: ["'none'"],
};

/** The CSP above as a header value (`default-src 'self'; …`). */
const CSP_HEADER = Object.entries(CONTENT_SECURITY_POLICY)
  .map(
    ([name, values]) =>
      `${name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)} ${values.join(' ')}`,
  )
  .join('; ');

/**
 * Security headers on every response: the CSP above, `X-Content-Type-Options: nosniff`,
 * `X-Frame-Options: DENY` (for browsers that ignore `frame-ancestors`), `Referrer-Policy: no-referrer`
 * (the page links to other sites, which need not learn our URLs). HSTS is left to the TLS proxy in
 * front, which knows the host names.
 */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = Object.freeze(
  securityHeaderRecord(),
);

/**
 * A fresh, mutable copy of {@link SECURITY_HEADERS} for a response, in the same order, built as one
 * object literal (a spread of the constant costs more on every request).
 */
export function securityHeaderRecord(): Record<string, string> {
  return {
    'Content-Security-Policy': CSP_HEADER,
    'X-Content-Type-Options': 'nosniff',
    'X-Frame-Options': 'DENY',
    'Referrer-Policy': 'no-referrer',
  };
}

/**
 * Sets {@link SECURITY_HEADERS} on the answer of `c`, unless its handler built them in already: the REST
 * answers build them into their `Response` (`answerHeaders`), which keeps @hono/node-server on its fast
 * path; everything else (static files, docs, tRPC, errors) gets them here, from the request-context
 * layer (`http/app.ts`).
 */
export function addSecurityHeaders(c: Context): void {
  if (c.get('answerHeaders') === true) return;
  const headers = c.res.headers;
  for (const [name, value] of Object.entries(SECURITY_HEADERS)) {
    headers.set(name, value);
  }
}

/**
 * Refuses source maps (`*.map`) with 404: they are not part of the production build, and the Swagger UI
 * package ships its own, which would be served from `/docs/assets` otherwise.
 */
export const refuseSourceMaps: MiddlewareHandler = async (c, next) => {
  if (c.req.path.endsWith('.map')) {
    throw new HttpError(404, `no route for ${c.req.method} ${c.req.path}`);
  }
  await next();
};
