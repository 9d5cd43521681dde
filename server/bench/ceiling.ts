/**
 * The ceiling: a bare `node:http` server that answers each scenario with the bytes the real server gave
 * for it, from memory (status, the replayable headers, `Content-Length`, the body). No framework and no
 * routing beyond one map lookup: what Node's HTTP layer alone costs on this machine, the physical limit
 * of this stack (issue 33, item 5). Whatever the real server spends beyond this is its own work; the ratio
 * of its req/s to this one's is stable across machines, unlike absolute req/s.
 *
 * Run as a child of the benchmark: `node --import tsx server/bench/ceiling.ts` with `CEILING_FILE` (see
 * ceiling-file.ts), `PORT` and `HOST` in the environment. Scenario `<id>` is served at `/<id>` with the
 * scenario's method; request bodies are read in full (as the real server must), then ignored.
 */
import { createServer } from 'node:http';
import type { IncomingMessage, OutgoingHttpHeaders } from 'node:http';
import { readCeilingFile } from './ceiling-file.js';

const file = process.env['CEILING_FILE'];
if (file === undefined) throw new Error('CEILING_FILE is not set');
const responses = await readCeilingFile(file);

interface Answer {
  readonly status: number;
  readonly headers: OutgoingHttpHeaders;
  readonly body: Buffer;
  readonly readsBody: boolean;
}

const HEALTH = Buffer.from('{"ok":true}');
const answers = new Map<string, Answer>([
  [
    'GET /healthz',
    {
      status: 200,
      headers: {
        'content-type': 'application/json',
        'content-length': HEALTH.length,
      },
      body: HEALTH,
      readsBody: false,
    },
  ],
]);
for (const captured of responses) {
  const body = Buffer.from(captured.body, 'base64');
  answers.set(`${captured.method} /${captured.id}`, {
    status: captured.status,
    headers: { ...captured.headers, 'content-length': body.length },
    body,
    readsBody: captured.method !== 'GET' && captured.method !== 'HEAD',
  });
}

/** Reads a request body to its end and drops it. */
function drain(request: IncomingMessage): Promise<void> {
  return new Promise((resolve, reject) => {
    request.on('data', () => undefined);
    request.on('end', resolve);
    request.on('error', reject);
  });
}

const server = createServer((request, response) => {
  const answer = answers.get(`${request.method} ${request.url}`);
  if (answer === undefined) {
    response.writeHead(404, { 'content-length': 0 }).end();
    return;
  }
  const send = () =>
    response.writeHead(answer.status, answer.headers).end(answer.body);
  if (answer.readsBody) drain(request).then(send, () => response.destroy());
  else send();
});
server.listen(
  Number(process.env['PORT'] ?? 0),
  process.env['HOST'] ?? '127.0.0.1',
);
const shutdown = () => server.close(() => process.exit(0));
process.on('SIGTERM', shutdown);
process.on('SIGINT', shutdown);
