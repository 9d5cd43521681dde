import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  expressionDiagnostics,
  LatestCheck,
  markSpan,
} from './expression-check.js';

/** A check whose answers the test hands out one by one. */
function scripted() {
  const calls: {
    input: string;
    signal: AbortSignal;
    resolve: (answer: string) => void;
    reject: (error: unknown) => void;
  }[] = [];
  const answers: [string, string][] = [];
  const failures: [string, unknown][] = [];
  const check = new LatestCheck<string, string>({
    delayMs: 250,
    run: (input, signal) =>
      new Promise<string>((resolve, reject) =>
        calls.push({ input, signal, resolve, reject }),
      ),
    onAnswer: (input, answer) => answers.push([input, answer]),
    onFailure: (input, error) => failures.push([input, error]),
  });
  return { check, calls, answers, failures };
}

describe('LatestCheck', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('runs once, with the last input, after a quiet period', async () => {
    const { check, calls, answers } = scripted();
    check.schedule('.a');
    await vi.advanceTimersByTimeAsync(200);
    check.schedule('.ab');
    await vi.advanceTimersByTimeAsync(200);
    check.schedule('.abc');
    await vi.advanceTimersByTimeAsync(249);
    expect(calls).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(calls.map((c) => c.input)).toEqual(['.abc']);
    expect(check.busy).toBe(true);
    calls[0]!.resolve('ok');
    await vi.advanceTimersByTimeAsync(0);
    expect(answers).toEqual([['.abc', 'ok']]);
    expect(check.busy).toBe(false);
  });

  it('aborts a running check when the input changes and ignores its late answer', async () => {
    const { check, calls, answers, failures } = scripted();
    check.schedule('.old');
    await vi.advanceTimersByTimeAsync(250);
    expect(calls).toHaveLength(1);
    check.schedule('.new');
    expect(calls[0]!.signal.aborted).toBe(true);
    // The old request answers anyway (the server was quicker than the abort): dropped.
    calls[0]!.resolve('stale');
    await vi.advanceTimersByTimeAsync(250);
    expect(calls).toHaveLength(2);
    calls[1]!.resolve('fresh');
    await vi.advanceTimersByTimeAsync(0);
    expect(answers).toEqual([['.new', 'fresh']]);
    expect(failures).toEqual([]);
  });

  it('drops a late answer even when the newer check has answered first', async () => {
    const { check, calls, answers } = scripted();
    check.schedule('.one');
    await vi.advanceTimersByTimeAsync(250);
    check.schedule('.two');
    await vi.advanceTimersByTimeAsync(250);
    calls[1]!.resolve('two');
    await vi.advanceTimersByTimeAsync(0);
    calls[0]!.resolve('one');
    await vi.advanceTimersByTimeAsync(0);
    expect(answers).toEqual([['.two', 'two']]);
  });

  it('reports the failure of the latest check only; an aborted one is silent', async () => {
    const { check, calls, failures } = scripted();
    check.schedule('.x');
    await vi.advanceTimersByTimeAsync(250);
    check.schedule('.y');
    calls[0]!.reject(new DOMException('aborted', 'AbortError'));
    await vi.advanceTimersByTimeAsync(250);
    calls[1]!.reject(new Error('offline'));
    await vi.advanceTimersByTimeAsync(0);
    expect(failures).toEqual([['.y', new Error('offline')]]);
  });

  it('cancel drops what waits and what runs', async () => {
    const { check, calls, answers } = scripted();
    check.schedule('.a');
    check.cancel();
    await vi.advanceTimersByTimeAsync(1000);
    expect(calls).toHaveLength(0);
    check.schedule('.b');
    await vi.advanceTimersByTimeAsync(250);
    check.cancel();
    expect(calls[0]!.signal.aborted).toBe(true);
    calls[0]!.resolve('late');
    await vi.advanceTimersByTimeAsync(0);
    expect(answers).toEqual([]);
    expect(check.busy).toBe(false);
  });
});

describe('markSpan', () => {
  it('splits the text around the span', () => {
    expect(markSpan('.nyc + @nope', { start: 7, end: 12 })).toEqual({
      before: '.nyc + ',
      marked: '@nope',
      after: '',
    });
  });

  it('marks nothing for an empty span, and clamps offsets to the text', () => {
    expect(markSpan('(.a', { start: 3, end: 3 })).toEqual({
      before: '(.a',
      marked: '',
      after: '',
    });
    expect(markSpan('.a', { start: -4, end: 99 })).toEqual({
      before: '',
      marked: '.a',
      after: '',
    });
    expect(markSpan('.abc', { start: 3, end: 1 })).toEqual({
      before: '.ab',
      marked: '',
      after: 'c',
    });
  });
});

describe('expressionDiagnostics', () => {
  const diagnostic = (severity: string, start: number, message = severity) => ({
    severity,
    code: 'unknown-id',
    message,
    start,
    end: start + 1,
  });

  it('keeps expression diagnostics, most serious first, then by position', () => {
    const found = expressionDiagnostics({
      diagnostics: [
        diagnostic('info', 0),
        diagnostic('warning', 5, 'w5'),
        diagnostic('error', 9),
        diagnostic('warning', 2, 'w2'),
        // A config diagnostic (a path, no offsets) and nonsense are left out.
        { severity: 'error', code: 'invalid-config', message: 'x', path: [] },
        { severity: 'fatal', message: 'x', start: 0, end: 1 },
        null,
      ],
    });
    expect(found.map((d) => d.message)).toEqual(['error', 'w2', 'w5', 'info']);
  });

  it('answers nothing for an answer that is not one', () => {
    expect(expressionDiagnostics(null)).toEqual([]);
    expect(expressionDiagnostics({ diagnostics: 'no' })).toEqual([]);
    expect(expressionDiagnostics({ diagnostics: [] })).toEqual([]);
  });
});
