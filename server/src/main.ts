/**
 * The server's entry point: settings from the environment and flags, then {@link startServer}; stops
 * gracefully on SIGTERM and SIGINT (in-flight requests finish, the database closes).
 */
import { loadSettings, USAGE } from './config/settings.js';
import { createLogger } from './logger.js';
import { startServer } from './start-server.js';

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
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    server.close().then(
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
