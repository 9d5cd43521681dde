import { pino } from 'pino';
import { describe, expect, it, vi } from 'vitest';
import { scheduleHistoryPruning } from './history-pruning.js';

const logger = pino({ level: 'silent' });

describe('scheduleHistoryPruning', () => {
  it('prunes at once with a bound, and stops waiting for a pruning in progress', async () => {
    let finish = (_: number) => undefined as void;
    const pruneHistory = vi.fn(
      () => new Promise<number>((resolve) => (finish = resolve)),
    );
    const stop = scheduleHistoryPruning(
      { pruneHistory },
      { historyKeep: { kind: 'count', count: 3 } },
      logger,
    );
    expect(pruneHistory).toHaveBeenCalledWith(
      { kind: 'count', count: 3 },
      expect.any(Number),
    );
    let stopped = false;
    const stopping = stop().then(() => (stopped = true));
    await Promise.resolve();
    expect(stopped).toBe(false);
    finish(2);
    await stopping;
    expect(stopped).toBe(true);
  });

  it('does nothing when everything is kept', async () => {
    const pruneHistory = vi.fn(async () => 0);
    await scheduleHistoryPruning(
      { pruneHistory },
      { historyKeep: { kind: 'all' } },
      logger,
    )();
    await scheduleHistoryPruning({ pruneHistory }, {}, logger)();
    expect(pruneHistory).not.toHaveBeenCalled();
  });
});
