import { describe, expect, it } from 'vitest';
import {
  restartDelay,
  RESTART_DELAY_MAX_MS,
  RESTART_DELAY_MS,
} from './cluster-primary.js';

describe('restartDelay', () => {
  it('doubles with each crash in a row, up to the maximum', () => {
    expect(restartDelay(1)).toBe(RESTART_DELAY_MS);
    expect(restartDelay(2)).toBe(2 * RESTART_DELAY_MS);
    expect(restartDelay(4)).toBe(8 * RESTART_DELAY_MS);
    expect(restartDelay(30)).toBe(RESTART_DELAY_MAX_MS);
  });
});
