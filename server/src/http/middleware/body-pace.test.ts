import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { HttpError } from '../http-error.js';
import { BODY_GRACE_MS, paced } from './body-pace.js';

describe('paced', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  /** A read that ends when told, and a byte count the test moves. */
  const body = () => {
    let arrived = 0;
    let end: (value: string) => void = () => undefined;
    const read = new Promise<string>((resolve) => {
      end = resolve;
    });
    return {
      read,
      end: (value: string) => end(value),
      add: (bytes: number) => {
        arrived += bytes;
      },
      progress: () => {
        const start = arrived;
        return () => arrived - start;
      },
    };
  };

  it('leaves alone a body that keeps up with the floor, however long it takes', async () => {
    const b = body();
    const result = paced(b.read, 1000, b.progress);
    // 1000 bytes a second, from the start: always ahead of 1000 × (t − 1 s).
    for (let second = 0; second < 10; second++) {
      b.add(1000);
      await vi.advanceTimersByTimeAsync(1000);
    }
    b.end('done');
    expect(await result).toBe('done');
  });

  it('cuts a body that falls behind with 408 and Connection: close, without waiting for it', async () => {
    const b = body();
    const result = paced(b.read, 1000, b.progress).catch(
      (error: unknown) => error,
    );
    b.add(1500);
    // Enough until 1 s + 1.5 s; then nothing more comes.
    await vi.advanceTimersByTimeAsync(BODY_GRACE_MS + 1400);
    b.add(10);
    await vi.advanceTimersByTimeAsync(200);
    const error = await result;
    expect(error).toBeInstanceOf(HttpError);
    expect(error).toMatchObject({
      status: 408,
      headers: { Connection: 'close' },
    });
  });

  it('has no floor at rate 0 or outside Node (no progress to watch)', async () => {
    const stalled = body();
    const off = paced(stalled.read, 0, stalled.progress);
    const inMemory = paced(stalled.read, 1000, undefined);
    await vi.advanceTimersByTimeAsync(60_000);
    stalled.end('late');
    expect(await off).toBe('late');
    expect(await inMemory).toBe('late');
  });
});
