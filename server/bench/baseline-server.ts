/**
 * Runs the benchmark's baseline server (baseline-app.ts) as a child process of the benchmark:
 * `node --import tsx server/bench/baseline-server.ts` with `DATABASE_URL` (`sqlite:<path>` or a path),
 * `PORT` and `HOST` in the environment. Stops on SIGTERM or SIGINT.
 */
import { serve } from '@hono/node-server';
import { createBaselineApp, sqlitePath } from './baseline-app.js';

const { app, close } = createBaselineApp(
  sqlitePath(process.env['DATABASE_URL'] ?? './data/baseline.db'),
);
const server = serve({
  fetch: app.fetch,
  port: Number(process.env['PORT'] ?? 3000),
  hostname: process.env['HOST'] ?? '127.0.0.1',
});
const shutdown = () =>
  server.close(() => {
    close();
    process.exit(0);
  });
process.on('SIGTERM', shutdown);
process.on('SIGINT', shutdown);
