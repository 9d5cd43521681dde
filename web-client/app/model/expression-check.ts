/**
 * Checking the expression as it is typed: a wait after the last keystroke before the server is asked,
 * and only the answer for what the field holds now is taken (an older request is aborted, and an answer
 * that arrives anyway is dropped). Plus the pure pieces of showing a diagnostic: which part of the
 * expression it points at.
 */
import type { Diagnostic } from '@linkconfig/shared';

/** Timers, replaceable in tests. */
export interface Timers {
  set(callback: () => void, ms: number): unknown;
  clear(handle: unknown): void;
}

const realTimers: Timers = {
  set: (callback, ms) => setTimeout(callback, ms),
  clear: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/** What {@link LatestCheck} does. */
export interface LatestCheckOptions<I, O> {
  /** How long to wait after the last {@link LatestCheck.schedule} before running. */
  delayMs: number;
  /** The check; it should stop when `signal` aborts. */
  run(input: I, signal: AbortSignal): Promise<O>;
  /** The answer for the latest input. */
  onAnswer(input: I, answer: O): void;
  /** The latest input's check failed (not called for an aborted or outdated one). */
  onFailure(input: I, error: unknown): void;
  timers?: Timers;
}

/** Runs a check for the latest input only, after a quiet period. */
export class LatestCheck<I, O> {
  private timer: unknown = null;
  private controller: AbortController | null = null;
  /** Counts inputs, so an answer to an older one is never delivered. */
  private generation = 0;
  private readonly timers: Timers;

  constructor(private readonly options: LatestCheckOptions<I, O>) {
    this.timers = options.timers ?? realTimers;
  }

  /** Whether a check waits to run or is running. */
  get busy(): boolean {
    return this.timer !== null || this.controller !== null;
  }

  /** Checks `input` once nothing newer came for `delayMs`; whatever was waiting or running is dropped. */
  schedule(input: I): void {
    this.cancel();
    const generation = this.generation;
    this.timer = this.timers.set(() => {
      this.timer = null;
      void this.start(input, generation);
    }, this.options.delayMs);
  }

  /** Drops the waiting and the running check; nothing more is delivered for them. */
  cancel(): void {
    this.generation++;
    if (this.timer !== null) this.timers.clear(this.timer);
    this.timer = null;
    this.controller?.abort();
    this.controller = null;
  }

  private async start(input: I, generation: number): Promise<void> {
    const controller = new AbortController();
    this.controller = controller;
    let answer: O;
    try {
      answer = await this.options.run(input, controller.signal);
    } catch (error) {
      if (generation !== this.generation) return;
      this.controller = null;
      this.options.onFailure(input, error);
      return;
    }
    if (generation !== this.generation) return;
    this.controller = null;
    this.options.onAnswer(input, answer);
  }
}

/** An expression diagnostic split around what it points at, for showing it in the expression. */
export interface MarkedSpan {
  before: string;
  /** The text pointed at; empty when the diagnostic points between two characters (or at the end). */
  marked: string;
  after: string;
}

/** Splits `text` at the diagnostic's offsets (clamped to the text, `end` never before `start`). */
export function markSpan(
  text: string,
  span: { start: number; end: number },
): MarkedSpan {
  const clamp = (n: number) =>
    Math.min(text.length, Math.max(0, Number.isFinite(n) ? Math.trunc(n) : 0));
  const start = clamp(span.start);
  const end = Math.max(start, clamp(span.end));
  return {
    before: text.slice(0, start),
    marked: text.slice(start, end),
    after: text.slice(end),
  };
}

const SEVERITY_ORDER: Record<Diagnostic['severity'], number> = {
  error: 0,
  warning: 1,
  info: 2,
};

/**
 * The expression diagnostics of a check answer, most serious first, then in the order of the text.
 * Anything without offsets (a config diagnostic, which an expression check does not send) is left out.
 */
export function expressionDiagnostics(answer: unknown): Diagnostic[] {
  if (typeof answer !== 'object' || answer === null) return [];
  const list = (answer as { diagnostics?: unknown }).diagnostics;
  if (!Array.isArray(list)) return [];
  const found = list.filter(
    (item): item is Diagnostic =>
      typeof item === 'object' &&
      item !== null &&
      typeof (item as Diagnostic).message === 'string' &&
      typeof (item as Diagnostic).start === 'number' &&
      typeof (item as Diagnostic).end === 'number' &&
      Object.hasOwn(SEVERITY_ORDER, (item as Diagnostic).severity),
  );
  return found
    .map((item, index) => ({ item, index }))
    .sort(
      (a, b) =>
        SEVERITY_ORDER[a.item.severity] - SEVERITY_ORDER[b.item.severity] ||
        a.item.start - b.item.start ||
        a.index - b.index,
    )
    .map(({ item }) => item);
}
