/**
 * With `--workers N` our server runs N processes (`WORKERS`); it answers once the first listens, and
 * the benchmark waits until every worker has: `/healthz` names the worker that answered, and each new
 * connection may go to another one.
 */
import { request } from 'node:http';

/** The `worker` field of one `/healthz` answer, on a connection of its own. */
function healthzWorker(baseUrl: string): Promise<number | null> {
  return new Promise((resolve, reject) => {
    const req = request(`${baseUrl}/healthz`, { agent: false }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => {
        try {
          const worker = (JSON.parse(text) as { worker?: unknown }).worker;
          resolve(typeof worker === 'number' ? worker : null);
        } catch {
          resolve(null);
        }
      });
    });
    req.on('error', reject);
    req.end();
  });
}

/** Resolves once `count` different workers have answered `/healthz`; throws after `timeoutMs`. */
export async function allWorkersAnswer(
  baseUrl: string,
  count: number,
  timeoutMs = 60_000,
): Promise<number[]> {
  const seen = new Set<number>();
  const deadline = Date.now() + timeoutMs;
  while (seen.size < count) {
    if (Date.now() > deadline) {
      throw new Error(
        `only ${seen.size} of ${count} workers answered within ${timeoutMs} ms`,
      );
    }
    const worker = await healthzWorker(baseUrl).catch(() => null);
    if (worker !== null) seen.add(worker);
    else await new Promise((r) => setTimeout(r, 100));
  }
  return [...seen];
}
