/**
 * How a long command shows that it is getting on: on a terminal a bar on stderr (cli-progress), redrawn
 * in place and cleared when done; elsewhere (a cron job, a pipe) a plain line every two seconds (a job
 * that ends sooner prints none), or nothing for a command that stays quiet there. Whether it is a terminal is decided by stdout, where the
 * command's result goes: stderr then carries only the progress.
 */
import { SingleBar } from 'cli-progress';
import type { CliIo } from './cli-io.js';

/** One phase of a command's work at a time. */
export interface Progress {
  /** Starts a phase (`checking`, `writing`) of `total` steps, named by `label`. */
  start(label: string, total: number): void;
  /** `done` steps of the phase are done; `detail` says it in words (`12.3 MB written`, `20/50 rows`). */
  update(done: number, detail?: string): void;
  /** Ends the display. */
  stop(): void;
}

/** Shows nothing. */
export const NO_PROGRESS: Progress = {
  start: () => undefined,
  update: () => undefined,
  stop: () => undefined,
};

/** How often, at most, a plain line is written: a job that ends sooner prints none. */
export const LINE_EVERY_MS = 2000;

/** Options of {@link progressOn}. */
export interface ProgressOptions {
  /** Away from a terminal, plain lines (else nothing). */
  readonly lines: boolean;
  /** The clock of the plain lines (ms; tests). */
  readonly now?: () => number;
}

/** A bar on a terminal; elsewhere plain lines (`lines`) or nothing. */
export function progressOn(io: CliIo, options: ProgressOptions): Progress {
  if (io.stdout.isTTY === true) return barOn(io.stderr);
  return options.lines
    ? linesOn(io.stderr, options.now ?? (() => performance.now()))
    : NO_PROGRESS;
}

function barOn(stream: NodeJS.WritableStream): Progress {
  const bar = new SingleBar({
    stream,
    clearOnComplete: true,
    // Whether to draw was decided by the terminal the command runs in (see the module comment).
    noTTYOutput: true,
    format: '{label} [{bar}] {percentage}% {detail}',
  });
  let running = false;
  return {
    start(label, total) {
      if (running) bar.stop();
      bar.start(total, 0, { label, detail: '' });
      running = true;
    },
    update(done, detail = '') {
      bar.setTotal(Math.max(done, bar.getTotal()));
      bar.update(done, { detail });
    },
    stop() {
      if (running) bar.stop();
      running = false;
    },
  };
}

/** A line such as `restoring: 40% 800/2000 rows written`, at most every {@link LINE_EVERY_MS}. */
function linesOn(stream: NodeJS.WritableStream, now: () => number): Progress {
  let label = '';
  let total = 0;
  let last = now();
  return {
    start(name, steps) {
      label = name;
      total = steps;
    },
    update(done, detail = '') {
      const at = now();
      if (at - last < LINE_EVERY_MS) return;
      last = at;
      const percent =
        total <= 0 ? 100 : Math.floor((Math.min(done, total) / total) * 100);
      stream.write(
        `${label}: ${percent}%${detail === '' ? '' : ` ${detail}`}\n`,
      );
    },
    stop: () => undefined,
  };
}
