import type { Logger } from 'pino';
import type { HistoryRepository } from '../config-repository.js';
import type { HistoryKeep } from '../../config/history-keep.js';

/** How often the server prunes history when `HISTORY_KEEP` bounds it. */
export const PRUNE_INTERVAL_MS = 60 * 60 * 1000;

/**
 * Prunes the history to `historyKeep` at start-up and then hourly (nothing with `all`); returns the call
 * that stops it and waits for a pruning in progress. A failed pruning is logged and tried again next time.
 */
export function scheduleHistoryPruning(
  repository: Pick<HistoryRepository, 'pruneHistory'>,
  options: { readonly historyKeep?: HistoryKeep | undefined },
  logger: Logger,
): () => Promise<void> {
  const keep = options.historyKeep;
  if (keep === undefined || keep.kind === 'all') return async () => undefined;
  let running: Promise<void> = Promise.resolve();
  const prune = () => {
    running = repository.pruneHistory(keep, Date.now()).then(
      (removed) => {
        if (removed > 0) logger.info({ removed }, 'history pruned');
      },
      (error: unknown) =>
        logger.error(
          { err: error },
          'history pruning failed; trying again later',
        ),
    );
  };
  prune();
  const timer = setInterval(prune, PRUNE_INTERVAL_MS);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await running;
  };
}
