/**
 * What an answer depends on besides the config, as the parse reaches it: the clock (`:time:` windows,
 * search patterns with an age), chance (`*shuffle*`) and custom handlers, each with until when the answer
 * holds. No diagnostic is looked for or formatted here.
 */
import type { AnalysisInput } from './analysis-input.js';
import type { GrammarObserver } from '../syntax/grammar-observer.js';
import { routeProtocol } from '../protocols/dispatch.js';
import { parseTimeArgs } from '../protocols/time.js';
import { refinerTraits } from '../evaluate/refiners.js';
import { parseAge } from '../evaluate/search-patterns.js';
import { TokenKind } from '../syntax/token-kind.js';
import type { CallToken, RegexToken } from '../syntax/token-kind.js';
import {
  dependsOnClock,
  isEmptyBetween,
  sinceValidUntil,
  timeValidUntil,
} from './valid-until.js';

/** A search pattern with an age depends on the clock. */
function searchDependency(
  input: AnalysisInput,
  token: RegexToken,
  at: number,
): void {
  const { now, cache, report } = input;
  const entry = cache.prepared.searchPatterns.get(token.key);
  if (entry === undefined || entry.regex === null) return;
  const age = parseAge(entry.options['age']);
  if (age > 0) {
    report.dependency(
      'clock',
      input.span(at, at),
      sinceValidUntil(age, now, cache.sortedCreatedAt),
    );
  }
}

/** A custom handler may change on any call; a valid `:time:` window depends on the clock. */
function protocolDependency(
  input: AnalysisInput,
  token: CallToken,
  at: number,
): void {
  const { now, cache, report } = input;
  const route = routeProtocol(
    token.name,
    input.handlers,
    input.builtinProtocols,
  );
  if (route.kind === 'handler') {
    report.dependency('handler', input.span(at, at), now);
    return;
  }
  if (route.kind !== 'builtin' || route.name !== 'time') return;
  const window = parseTimeArgs(token.args);
  if (
    window === null ||
    (window.kind === 'between' && isEmptyBetween(window))
  ) {
    return;
  }
  if (dependsOnClock(window)) {
    report.dependency(
      'clock',
      input.span(at, at),
      timeValidUntil(window, now, cache.sortedTimeStamps),
    );
  }
}

/** The observer that records dependencies in `input.report`. */
export function dependencyObserver(input: AnalysisInput): GrammarObserver {
  return {
    atom: (token, at, searchAllowed) => {
      if (token.kind === TokenKind.REGEX) {
        if (searchAllowed) searchDependency(input, token, at);
      } else if (token.kind === TokenKind.PROTOCOL) {
        protocolDependency(input, token, at);
      }
    },
    refiner: (token, at) => {
      if (refinerTraits(token.name)?.random === true) {
        input.report.dependency('random', input.span(at, at), input.now);
      }
    },
  };
}
