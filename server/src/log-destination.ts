/**
 * Where the log lines go: a file descriptor (stdout), written asynchronously in batches. Lines that pile
 * up while a write is in progress go out together in the next one, so a busy server spends one system
 * call on many lines. Whatever happens to the reader never holds the process: a reader that has gone
 * (`EPIPE`, e.g. `… | head -2`) switches logging off, a reader that stops reading makes lines wait (and
 * beyond {@link MAX_PENDING} characters be dropped), and the final flush at exit gives up after
 * {@link EXIT_FLUSH_MS}.
 */
import { write, writeSync } from 'node:fs';

/** Most characters of lines kept waiting for a slow reader; more are dropped. */
export const MAX_PENDING = 8 * 1024 * 1024;
/** How long the flush at exit keeps trying a full pipe before it gives up. */
export const EXIT_FLUSH_MS = 1_000;
/** The pause before retrying a full, non-blocking pipe. */
const RETRY_MS = 10;

const isFull = (error: unknown): boolean => {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  return code === 'EAGAIN' || code === 'EBUSY';
};

/** A pino destination writing to `fd` (see the module comment). */
export class FdDestination {
  private pending: string[] = [];
  private pendingLength = 0;
  private writing = false;
  /** The output is gone: nothing more is written. */
  private broken = false;

  constructor(private readonly fd: number) {}

  write(line: string): void {
    if (this.broken || this.pendingLength + line.length > MAX_PENDING) return;
    this.pending.push(line);
    this.pendingLength += line.length;
    if (!this.writing) this.next();
  }

  /** Writes out what is waiting, synchronously (at exit); never loops on a broken or stalled reader. */
  flushSync(): void {
    if (this.broken || this.pending.length === 0) return;
    let chunk = this.take();
    const deadline = Date.now() + EXIT_FLUSH_MS;
    while (chunk.length > 0) {
      try {
        chunk = chunk.subarray(writeSync(this.fd, chunk));
      } catch (error) {
        if (!isFull(error) || Date.now() >= deadline) {
          this.broken = true;
          return;
        }
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, RETRY_MS);
      }
    }
  }

  private take(): Buffer {
    const chunk = Buffer.from(this.pending.join(''));
    this.pending = [];
    this.pendingLength = 0;
    return chunk;
  }

  private next(): void {
    if (this.pending.length === 0 || this.broken) {
      this.writing = false;
      return;
    }
    this.writing = true;
    this.send(this.take());
  }

  private send(chunk: Buffer): void {
    write(this.fd, chunk, 0, chunk.length, null, (error, written) => {
      if (error !== null) {
        if (isFull(error)) {
          setTimeout(() => this.send(chunk), RETRY_MS).unref();
          return;
        }
        this.broken = true;
        this.pending = [];
        this.pendingLength = 0;
        this.writing = false;
        return;
      }
      if (written < chunk.length) this.send(chunk.subarray(written));
      else this.next();
    });
  }
}
