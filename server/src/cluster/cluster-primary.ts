/**
 * The primary process of `WORKERS` > 1: it serves nothing itself. It starts the workers (each a whole
 * server on the same port, node:cluster handing connections out in turn), the first one alone so that
 * it creates or migrates the database and seeds it before the others open it. It restarts a worker that
 * ends unexpectedly, waiting longer after each crash in a row, renders `/metrics` for all workers when
 * one asks, and on SIGTERM or SIGINT stops every worker gracefully and exits once all have.
 */
import cluster from 'node:cluster';
import type { Worker } from 'node:cluster';
import type { Logger } from 'pino';
import { AggregatorRegistry } from 'prom-client';
import {
  isMessage,
  METRICS_REPLY,
  METRICS_REQUEST,
  SHUTDOWN,
} from './cluster-messages.js';
import type { ClusterMessage } from './cluster-messages.js';

/** The first restart waits this long; each crash in a row doubles it, up to the maximum. */
export const RESTART_DELAY_MS = 500;
export const RESTART_DELAY_MAX_MS = 30_000;
/** A worker that ran this long before crashing is restarted with the first delay again. */
const STABLE_MS = 60_000;

/**
 * The delay before restarting a worker after `crashes` crashes in a row (1 for the first).
 *
 * @example
 * restartDelay(1); // 500
 * restartDelay(4); // 4000
 */
export function restartDelay(crashes: number): number {
  return Math.min(
    RESTART_DELAY_MAX_MS,
    RESTART_DELAY_MS * 2 ** Math.max(0, crashes - 1),
  );
}

/** Options of {@link runPrimary}. */
export interface PrimaryOptions {
  workers: number;
  logger: Logger;
  /** How long the workers get to stop after SIGTERM before they are killed (their own bound and a bit). */
  stopBoundMs: number;
}

/** Starts the workers and supervises them until a signal stops them all; exits the process then. */
export async function runPrimary(options: PrimaryOptions): Promise<void> {
  const { logger, workers } = options;
  const aggregator = new AggregatorRegistry();
  let stopping = false;
  let crashes = 0;
  const startedAt = new Map<Worker, number>();

  cluster.on('message', (worker, message: unknown) => {
    if (!isMessage(message, METRICS_REQUEST)) return;
    const reply = (fields: Partial<ClusterMessage>) => {
      if (worker.isConnected())
        worker.send({ type: METRICS_REPLY, id: message.id, ...fields });
    };
    aggregator.clusterMetrics().then(
      (body) => reply({ body }),
      (error: unknown) => reply({ error: String(error) }),
    );
  });

  const stop = (signal: string) => {
    if (stopping) {
      // A second signal: no more waiting.
      for (const worker of Object.values(cluster.workers ?? {}))
        worker?.process.kill('SIGKILL');
      process.exit(1);
    }
    stopping = true;
    logger.info({ signal }, 'shutting down all workers');
    setTimeout(() => {
      logger.error('workers took too long to stop; killing them');
      for (const worker of Object.values(cluster.workers ?? {}))
        worker?.process.kill('SIGKILL');
      process.exit(1);
    }, options.stopBoundMs).unref();
    const live = Object.values(cluster.workers ?? {}).filter(
      (w): w is Worker => w !== undefined,
    );
    if (live.length === 0) process.exit(0);
    let left = live.length;
    for (const worker of live) {
      worker.once('exit', () => {
        left--;
        if (left === 0) {
          logger.info('all workers stopped');
          process.exit(0);
        }
      });
      if (worker.isConnected()) worker.send({ type: SHUTDOWN });
      else worker.process.kill('SIGTERM');
    }
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));

  const fork = (): Worker => {
    const worker = cluster.fork();
    startedAt.set(worker, Date.now());
    logger.info({ worker: worker.process.pid }, 'worker started');
    return worker;
  };

  // The first worker alone: it opens (creates, migrates, seeds) the database before the others do.
  const first = fork();
  await new Promise<void>((resolve) => {
    const onExit = (code: number | null) => {
      // Stopped before it listened: stop() exits once every worker has.
      if (stopping) return resolve();
      logger.fatal({ code }, 'the first worker could not start; stopping');
      process.exit(1);
    };
    first.once('exit', onExit);
    first.once('listening', () => {
      first.off('exit', onExit);
      resolve();
    });
  });
  for (let i = 1; i < workers && !stopping; i++) fork();

  cluster.on('exit', (worker, code, signal) => {
    const ran = Date.now() - (startedAt.get(worker) ?? Date.now());
    startedAt.delete(worker);
    if (stopping) return;
    crashes = ran >= STABLE_MS ? 1 : crashes + 1;
    const delay = restartDelay(crashes);
    logger.error(
      {
        worker: worker.process.pid,
        code,
        signal,
        ranMs: ran,
        restartInMs: delay,
      },
      'worker ended unexpectedly; restarting it',
    );
    setTimeout(() => {
      if (!stopping) fork();
    }, delay);
  });

  logger.info({ workers }, 'all workers started');
}
