import { createRequire } from 'node:module';
import { dirname } from 'node:path';

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
