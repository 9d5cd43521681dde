/**
 * The ceiling: a plain Hono app on `@hono/node-server` that answers each scenario with the bytes the real
 * server gave for it, from memory. Whatever the real server spends beyond this is its own work; the ratio
 * of its req/s to this one's is stable across machines, unlike absolute req/s.
 *
 * Run as a child of the benchmark: `node --import tsx server/bench/ceiling.ts` with `CEILING_FILE` (see
 * ceiling-file.ts), `PORT` and `HOST` in the environment. Scenario `<id>` is served at `/<id>` with the
 * scenario's method; request bodies are read in full (as the real server must), then ignored.
 */
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import type { Context } from 'hono';
import { readCeilingFile } from './ceiling-file.js';

const file = process.env['CEILING_FILE'];
if (file === undefined) throw new Error('CEILING_FILE is not set');
const responses = await readCeilingFile(file);

const app = new Hono();
app.get('/healthz', (c) => c.json({ ok: true }));

for (const captured of responses) {
  const body = Buffer.from(captured.body, 'base64');
  const bytes = body.length === 0 ? null : new Uint8Array(body);
  const headers = captured.headers;
  const status = captured.status;
  const hasBody = captured.method !== 'GET' && captured.method !== 'HEAD';
  const handler = async (c: Context) => {
    if (hasBody) await c.req.arrayBuffer();
    return new Response(bytes, { status, headers });
  };
  app.on(captured.method, `/${captured.id}`, handler);
}

const server = serve({
  fetch: app.fetch,
  port: Number(process.env['PORT'] ?? 0),
  hostname: process.env['HOST'] ?? '127.0.0.1',
});
const shutdown = () => server.close(() => process.exit(0));
process.on('SIGTERM', shutdown);
process.on('SIGINT', shutdown);
