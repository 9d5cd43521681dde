import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { serveStatic } from '@hono/node-server/serve-static';
import type { Hono } from 'hono';
import { refuseSourceMaps } from '../middleware/security-headers.js';

/** Folder of the `swagger-ui-dist` assets served under `/docs/assets/`. */
export function swaggerUiDir(): string {
  const require = createRequire(import.meta.url);
  return dirname(require.resolve('swagger-ui-dist/package.json'));
}

/** The interactive API docs page (Swagger UI over `/openapi.json`). */
export function docsPage(): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Link Config Service API</title>
<link rel="stylesheet" href="/docs/assets/swagger-ui.css">
</head>
<body>
<div id="ui"></div>
<script src="/docs/assets/swagger-ui-bundle.js"></script>
<script src="/docs/init.js"></script>
</body>
</html>`;
}

/** The script that starts Swagger UI on the generated document. */
export const DOCS_INIT_SCRIPT =
  "window.ui = SwaggerUIBundle({ url: '/openapi.json', dom_id: '#ui' });\n";

/** `/openapi.json` (the document, serialized once) and the `/docs` page with its script and assets. */
export function mountDocsRoutes(app: Hono, openapiJson: string): void {
  app.get(
    '/openapi.json',
    () =>
      new Response(openapiJson, {
        headers: { 'Content-Type': 'application/json; charset=utf-8' },
      }),
  );
  app.get('/docs', (c) => c.html(docsPage()));
  app.get(
    '/docs/init.js',
    () =>
      new Response(DOCS_INIT_SCRIPT, {
        headers: { 'Content-Type': 'text/javascript; charset=utf-8' },
      }),
  );
  app.use('/docs/assets/*', refuseSourceMaps);
  app.get(
    '/docs/assets/*',
    serveStatic({
      root: swaggerUiDir(),
      rewriteRequestPath: (p) => p.replace(/^\/docs\/assets/, ''),
    }),
  );
}
