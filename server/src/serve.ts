/**
 * Serving from a command line (`linkconfig serve`, `linkconfig-server`, `node server/dist/main.js`):
 * settings from the environment and flags, then {@link startServer}; stops gracefully on SIGTERM and
 * SIGINT (in-flight requests finish, the database closes) within a bound; a second signal exits at once.
 */
import { loadSettings, USAGE } from './config/settings.js';
import { createLogger } from './logger.js';
import { startServer } from './start-server.js';

/** How long requests in flight get to finish after SIGTERM. */
const SHUTDOWN_GRACE_MS = 10_000;
/** When the process exits whatever still runs: the grace, plus time to close the database. */
const SHUTDOWN_BOUND_MS = SHUTDOWN_GRACE_MS + 5_000;

/** Serves with the settings of `process.env` and `argv` (the flags after the command's name). */
export async function serve(argv: readonly string[]): Promise<void> {
  let settings;
  try {
    settings = loadSettings(process.env, argv);
  } catch (error) {
    process.stderr.write(
      `${error instanceof Error ? error.message : String(error)}\n\n${USAGE}`,
    );
    process.exit(2);
  }
  if (settings === 'help') {
    process.stdout.write(USAGE);
    return;
  }
  const logger = createLogger(settings.logLevel);
  const server = await startServer({ ...settings, logger });
  let stopping = false;
  const stop = (signal: string): void => {
    // A second signal ends the process at once, as does the bound: nothing (a stalled client, a log
    // reader that has gone) holds a stop longer than that.
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
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}
