import type { MiddlewareHandler } from 'hono';
import { secureHeaders } from 'hono/secure-headers';
import { HttpError } from './http-error.js';

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

/**
 * Security headers on every response: the CSP above, `X-Content-Type-Options: nosniff`,
 * `X-Frame-Options: DENY` (for browsers that ignore `frame-ancestors`), `Referrer-Policy: no-referrer`
 * (the page links to other sites, which need not learn our URLs). HSTS is left to the TLS proxy in
 * front, which knows the host names.
 */
export function securityHeaders(): MiddlewareHandler {
  return secureHeaders({
    contentSecurityPolicy: CONTENT_SECURITY_POLICY,
    xContentTypeOptions: true,
    xFrameOptions: 'DENY',
    referrerPolicy: 'no-referrer',
    // Off: each is one more header to build on every response (a cost on the hot path) for protection
    // the CSP and the JSON content type already give, or that belongs to the proxy (HSTS).
    crossOriginResourcePolicy: false,
    crossOriginOpenerPolicy: false,
    crossOriginEmbedderPolicy: false,
    originAgentCluster: false,
    strictTransportSecurity: false,
    xDnsPrefetchControl: false,
    xDownloadOptions: false,
    xPermittedCrossDomainPolicies: false,
    xXssProtection: false,
    removePoweredBy: false,
  });
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
