/**
 * The server's entry point: settings from the environment and flags, then {@link startServer}; stops
 * gracefully on SIGTERM and SIGINT (in-flight requests finish, the database closes) within a bound; a
 * second signal exits at once.
 */
import { loadSettings, USAGE } from './config/settings.js';
import { createLogger } from './logger.js';
import { startServer } from './start-server.js';

/** How long requests in flight get to finish after SIGTERM. */
const SHUTDOWN_GRACE_MS = 10_000;
/** When the process exits whatever still runs: the grace, plus time to close the database. */
const SHUTDOWN_BOUND_MS = SHUTDOWN_GRACE_MS + 5_000;

async function main(): Promise<void> {
  let settings;
  try {
    settings = loadSettings(process.env, process.argv.slice(2));
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

main().catch((error: unknown) => {
  process.stderr.write(
    `failed to start: ${error instanceof Error ? error.message : String(error)}\n`,
  );
  process.exit(1);
});
