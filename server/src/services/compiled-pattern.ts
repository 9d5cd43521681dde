import { compileLinear, LIMITS } from '@linkconfig/shared';
import { DomainError } from '../errors.js';
import { decidedPattern, decidedTest } from './decided-pattern.js';
import { requiredLiterals } from './regex-literals.js';
import type { RequiredLiterals } from './regex-literals.js';

/**
 * What a search asks of a compiled pattern (an `RE2JS` here), written out so that the type of the
 * `patterns` cache names no import of the engine: the router's type reaches the web client's
 * declarations through the context, and re2js is no dependency of theirs.
 */
export interface PatternTest {
  /** A plain function (no `this`), so it can be handed on as it is. */
  readonly test: (text: string) => boolean;
}

/** A search pattern compiled once, with the literals every match contains (worked out when first asked). */
export class CompiledPattern {
  readonly regex: PatternTest;
  readonly #source: string;
  #literals: RequiredLiterals | undefined;

  constructor(regex: PatternTest, source: string) {
    this.regex = regex;
    this.#source = source;
  }

  get literals(): RequiredLiterals {
    this.#literals ??= requiredLiterals(this.#source);
    return this.#literals;
  }
}

/**
 * What a compiled pattern keeps alive: about 12 KiB for a pattern of 25 characters such as
 * `\b(guide|city)\s+\w+` once tested (heap after 2,000 of them, Node 20), weighed with a margin.
 */
export const patternWeight = (pattern: string): number =>
  12 * 1024 + 256 * pattern.length;

/**
 * `pattern` compiled case-insensitively. A pattern a short scan decides exactly (`decided-pattern.ts`:
 * `\b(guide|city)\s+\w+` and its kind, valid by their shape) is tested by that scan, without re2js.
 * Otherwise the test is re2js's own (`RE2.match`, what `RE2JS.test` runs for
 * a text) without `RE2JS.test`'s first step, the check whether its input is a byte array
 * (`Object.prototype.toString` on every call): a search tests only texts, a hundred of them or more per
 * request.
 */
export function compile(
  pattern: string,
  what: 'regex' | 'config',
): PatternTest {
  const decided = decidedPattern(pattern);
  if (decided !== null) return { test: decidedTest(decided) };
  let compiled: ReturnType<typeof compileLinear>;
  try {
    compiled = compileLinear(pattern);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new DomainError(
      'invalid_pattern',
      `${what} is not a valid regular expression: ${reason}`,
    );
  }
  if ('tooLarge' in compiled) {
    throw new DomainError(
      'invalid_pattern',
      `${what} is too large to run: it compiles to ${compiled.tooLarge} steps, at most ` +
        `${LIMITS.patternProgramMax} (large counted repeats such as {1,1000} are the usual cause)`,
    );
  }
  const re2 = compiled.re2();
  return { test: (text) => re2.match(text) };
}
