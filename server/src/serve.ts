/**
 * Serving from a command line (`linkconfig serve`, `linkconfig-server`, `node server/dist/main.js`):
 * settings from the environment and flags, then {@link startServer}; stops gracefully on SIGTERM and
 * SIGINT (in-flight requests finish, the database closes) within a bound; a second signal exits at once.
 * With `WORKERS` > 1 this process becomes the primary (cluster/cluster-primary.ts) and each worker, a
 * copy of this process, serves; a worker stops when the primary tells it to (or on its own SIGTERM, or
 * when the primary is gone), and leaves SIGINT (Ctrl-C reaches the whole process group) to the primary.
 */
import cluster from 'node:cluster';
import { runPrimary } from './cluster/cluster-primary.js';
import { isMessage, SHUTDOWN } from './cluster/cluster-messages.js';
import { loadSettings, usage } from './config/settings.js';
import { createLogger } from './logger.js';
import { tuneHeap } from './heap.js';
import { startServer } from './start-server.js';

/** How long requests in flight get to finish after SIGTERM. */
const SHUTDOWN_GRACE_MS = 10_000;
/** When the process exits whatever still runs: the grace, plus time to close the database. */
const SHUTDOWN_BOUND_MS = SHUTDOWN_GRACE_MS + 5_000;

/** How {@link serve} was called: the command's name (for `--help`) and where help goes. */
export interface ServeCall {
  /** `linkconfig-server` (default), or `linkconfig serve`. */
  readonly command?: string;
  readonly stdout?: NodeJS.WritableStream;
}

/**
 * Serves with the settings of `process.env` and `argv` (the flags after the command's name). Settings
 * that cannot be used reject with a `SettingsError` before anything opens; the caller says it and exits
 * with 2.
 */
export async function serve(
  argv: readonly string[],
  call: ServeCall = {},
): Promise<void> {
  const settings = loadSettings(process.env, argv);
  if (settings === 'help') {
    (call.stdout ?? process.stdout).write(usage(call.command));
    return;
  }
  const logger = createLogger(settings.logLevel);
  if (settings.workers > 1 && cluster.isPrimary) {
    await runPrimary({
      workers: settings.workers,
      logger,
      stopBoundMs: SHUTDOWN_BOUND_MS + 5_000,
    });
    return;
  }
  tuneHeap();
  const worker = cluster.isWorker;
  let stopRequested: string | undefined;
  if (worker) {
    // Listen before starting: a stop may come while this worker still opens the database.
    process.on('SIGINT', () => {
      // Ctrl-C: the primary got it too and tells every worker.
    });
    process.on('message', (message: unknown) => {
      if (isMessage(message, SHUTDOWN)) requestStop('primary');
    });
    process.on('disconnect', () => requestStop('primary gone'));
  }
  process.on('SIGTERM', () => requestStop('SIGTERM'));
  if (!worker) process.on('SIGINT', () => requestStop('SIGINT'));
  const running: { stop?: (signal: string) => void } = {};
  function requestStop(signal: string): void {
    if (running.stop === undefined) stopRequested ??= signal;
    else running.stop(signal);
  }

  const server = await startServer({
    ...settings,
    logger,
    clusterWorker: worker,
  });
  let stopping = false;
  const stop = (signal: string): void => {
    // A second signal ends the process at once, as does the bound: nothing (a stalled client, a log
    // reader that has gone) holds a stop longer than that. A worker may hear of one stop twice (its
    // primary's message and a SIGTERM sent to the whole group): the primary owns the second signal.
    if (stopping && worker) return;
    if (stopping) process.exit(1);
    stopping = true;
    logger.info({ signal }, 'shutting down');
    setTimeout(() => {
      logger.error('shutdown took too long; exiting');
      process.exit(1);
    }, SHUTDOWN_BOUND_MS).unref();
    server.close(SHUTDOWN_GRACE_MS).then(
      () => process.exit(0),
      (error: unknown) => {
        logger.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  running.stop = stop;
  if (stopRequested !== undefined) stop(stopRequested);
}
