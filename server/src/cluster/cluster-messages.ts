/**
 * The messages between the primary process and its workers (`WORKERS` > 1, over node:cluster's IPC
 * channel), and the worker's side of them: asking the primary for the metrics of every worker, and
 * hearing that the primary wants it to stop.
 */
import cluster from 'node:cluster';
import { AggregatorRegistry } from 'prom-client';
import type { Registry } from 'prom-client';

/** Primary → worker: stop gracefully (as on SIGTERM). */
export const SHUTDOWN = 'linkconfig:shutdown';
/** Worker → primary: render the metrics of all workers (`id` pairs the answer). */
export const METRICS_REQUEST = 'linkconfig:metrics-request';
/** Primary → worker: the rendered metrics, or why there are none. */
export const METRICS_REPLY = 'linkconfig:metrics-reply';

/** A message of ours (IPC also carries node:cluster's and prom-client's own). */
export interface ClusterMessage {
  type: string;
  id?: number;
  body?: string;
  error?: string;
}

/** Whether `message` is one of ours with type `type`. */
export const isMessage = (
  message: unknown,
  type: string,
): message is ClusterMessage =>
  typeof message === 'object' &&
  message !== null &&
  (message as { type?: unknown }).type === type;

/** How long a worker waits for the primary's metrics before `/metrics` fails. */
const METRICS_TIMEOUT_MS = 10_000;

/**
 * In a worker: offers `registry` to the primary's aggregation (prom-client answers the primary's
 * requests), and returns a function that renders the metrics of all workers, summed per series by the
 * primary. Throws outside a worker.
 */
export function workerMetrics(registry: Registry): () => Promise<string> {
  if (!cluster.isWorker)
    throw new Error('workerMetrics needs a cluster worker');
  AggregatorRegistry.setRegistries([registry]);
  // Constructing one installs prom-client's listener that answers the primary with `registry`.
  new AggregatorRegistry();
  let next = 0;
  const waiting = new Map<number, (reply: ClusterMessage) => void>();
  process.on('message', (message: unknown) => {
    if (!isMessage(message, METRICS_REPLY) || message.id === undefined) return;
    waiting.get(message.id)?.(message);
  });
  return () =>
    new Promise((resolve, reject) => {
      const id = next++;
      const timer = setTimeout(() => {
        waiting.delete(id);
        reject(new Error('the primary process did not send the metrics'));
      }, METRICS_TIMEOUT_MS);
      waiting.set(id, (reply) => {
        clearTimeout(timer);
        waiting.delete(id);
        if (reply.body !== undefined) resolve(reply.body);
        else reject(new Error(reply.error ?? 'no metrics'));
      });
      process.send?.({ type: METRICS_REQUEST, id } satisfies ClusterMessage);
    });
}
