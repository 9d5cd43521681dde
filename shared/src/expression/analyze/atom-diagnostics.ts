/**
 * Diagnostics of the atoms the parse reaches (docs/expression-reference.md §5, §8, §10): unknown names,
 * hyphenated names, placeholders, search patterns that are unknown, unusable or over the limit, and
 * protocols that are unknown, turned off or given arguments that select nothing.
 */
import { protocolText } from './analysis-input.js';
import type { AnalysisInput } from './analysis-input.js';
import { quote } from './analysis-report.js';
import type { AtomToken } from '../evaluate/atoms.js';
import { routeProtocol } from '../protocols/dispatch.js';
import { locationFilter } from '../protocols/location.js';
import { parseTimeArgs } from '../protocols/time.js';
import { MAX_SEARCH_ATOMS } from '../evaluate/search-patterns.js';
import { TokenKind } from '../syntax/token-kind.js';
import type { CallToken, NameToken, RegexToken } from '../syntax/token-kind.js';
import type { SearchPatternProblem } from '../types.js';
import { LIMITS } from '../../schemas/limits.js';
import { isEmptyBetween } from './valid-until.js';

/** Characters after a colon that end a protocol token (docs/expression-reference.md §7), for a hint. */
const OPERATOR_CHARS = /[\s+|,()*/]/;

const SEARCH_PROBLEMS: Readonly<Record<SearchPatternProblem, string>> = {
  hyphen: 'its key contains `-`',
  shape: 'it is neither a string nor an object with a string `pattern`',
  invalid: 'its pattern is not a valid regular expression',
  unsafe:
    'its pattern could take exponential time (a repeated group that holds a repetition)',
  unsupported:
    'its pattern uses syntax the linear-time engine does not support (lookaround, backreferences, …)',
  too_large: `its pattern compiles to more than ${LIMITS.patternProgramMax} steps (large counted repeats such as {1,1000})`,
};

/** An id or tag: unknown, or the head of a hyphen run read as WITHOUT. */
function nameDiagnostics(
  input: AnalysisInput,
  token: NameToken,
  at: number,
): void {
  const { hyphens } = input;
  const run = hyphens.runs.get(at);
  const { prepared } = input.cache;
  if (run !== undefined) {
    const isTag = token.kind === TokenKind.CLASS;
    const known = isTag
      ? prepared.dropped?.tags.has(run.name)
      : prepared.dropped?.ids.has(run.name);
    const [head = '', ...rest] = run.name.split('-');
    const allExist =
      (isTag ? prepared.tagIndex.has(head) : prepared.position.has(head)) &&
      rest.every((id) => prepared.position.has(id));
    // `.nyc-katz` between existing names is most likely meant as WITHOUT: nothing to say.
    if (allExist && known !== true) return;
    const written = `${isTag ? '.' : ''}${run.name}`;
    const reading = `${isTag ? '.' : ''}${token.value}`;
    const without = run.name.slice(token.value.length + 1);
    input.report.diagnostic(
      'hyphenated-name',
      known === true
        ? `the ${isTag ? 'tag' : 'id'} ${quote(run.name)} contains \`-\`, so no expression can select it: ${quote(written)} reads as ${quote(reading)} without ${quote(without)}`
        : `${quote(written)} reads as ${quote(reading)} without ${quote(without)}: \`-\` is the WITHOUT operator, and tags and ids cannot contain it`,
      input.span(at, run.last),
    );
    return;
  }
  if (hyphens.inRun.has(at)) return;
  if (token.kind === TokenKind.CLASS) {
    if (!prepared.tagIndex.has(token.value)) {
      input.say('unknown-tag', `no link has the tag ${quote(token.value)}`, at);
    }
    return;
  }
  // A name right after a leftover `@` was reported as a macro cycle.
  const afterAt = input.text.charAt((input.starts[at] ?? 0) - 1) === '@';
  if (!prepared.position.has(token.value) && !afterAt) {
    input.say('unknown-id', `no link has the id ${quote(token.value)}`, at);
  }
}

/** A search atom beyond the per-expression limit (§8.1). */
export function searchLimitDiagnostic(input: AnalysisInput, at: number): void {
  input.say(
    'search-pattern-limit',
    `only ${MAX_SEARCH_ATOMS} search patterns are used per expression: this one selects nothing`,
    at,
  );
}

/** A search pattern that is unknown or unusable. */
function searchDiagnostics(
  input: AnalysisInput,
  token: RegexToken,
  at: number,
): void {
  const { prepared } = input.cache;
  const entry = prepared.searchPatterns.get(token.key);
  if (entry === undefined) {
    const problem = prepared.dropped?.searchPatterns.get(token.key);
    if (problem !== undefined) {
      input.say(
        'unsafe-search-pattern',
        `the search pattern ${quote(token.key)} cannot be used because ${SEARCH_PROBLEMS[problem]}: it selects nothing`,
        at,
      );
      return;
    }
    const start = input.starts[at] ?? 0;
    const unclosed = input.text.indexOf('/', start + 1) === -1;
    const hint = unclosed
      ? ' (it has no closing `/`, so its key runs to the end)'
      : prepared.searchPatterns.has(token.key.trim())
        ? ' (spaces in a key count)'
        : '';
    input.say(
      'unknown-search-pattern',
      `no search pattern is named ${quote(token.key)}${hint}`,
      at,
    );
    return;
  }
  if (entry.regex === null) {
    input.say(
      'unsafe-search-pattern',
      `the search pattern ${quote(token.key)} cannot be used because ${SEARCH_PROBLEMS.unsupported}: it selects nothing`,
      at,
    );
  }
}

/** The problem with the arguments of a built-in protocol, or `undefined`. */
function builtinProblem(
  token: CallToken,
  name: 'time' | 'location',
): string | undefined {
  if (name === 'location') {
    return locationFilter(token.args) === null
      ? 'use `:location:`, `:location:radius:LAT,LNG:5km:` or `:location:bbox:LAT,LNG:LAT,LNG:`'
      : undefined;
  }
  const window = parseTimeArgs(token.args);
  if (window === null) {
    return 'use `today`, a duration such as `3d`, two durations, or one or two dates';
  }
  return window.kind === 'between' && isEmptyBetween(window)
    ? 'the nearer duration comes first, as in `:time:3d:9d:`'
    : undefined;
}

/** A protocol that selects nothing: unknown, turned off, or with unusable arguments. */
function protocolDiagnostics(
  input: AnalysisInput,
  token: CallToken,
  at: number,
): void {
  const { name, args } = token;
  const route = routeProtocol(name, input.handlers, input.builtinProtocols);
  if (route.kind === 'handler') return;
  if (route.kind === 'builtin') {
    const problem = builtinProblem(token, route.name);
    if (problem !== undefined) {
      input.say(
        'invalid-protocol-arguments',
        `${quote(protocolText(token))} selects nothing: ${problem}`,
        at,
      );
    }
    return;
  }
  const hint = [name, ...args].some((part) => OPERATOR_CHARS.test(part))
    ? ' (a protocol runs to the next `:`: is a closing `:` missing?)'
    : '';
  const message =
    route.kind === 'builtin-off'
      ? `built-in protocols are turned off here, so ${quote(protocolText(token))} selects nothing`
      : input.cache.prepared.protocolNames.has(name)
        ? `the config declares ${quote(`:${name}:`)} but the server has no filter for it: it selects nothing`
        : `unknown protocol ${quote(`:${name}:`)}${hint}: it selects nothing`;
  input.say('unknown-protocol', message, at);
}

/** Reports what is wrong with the atom `token` at `at` (a search atom within the limit). */
export function atomDiagnostics(
  input: AnalysisInput,
  token: AtomToken,
  at: number,
): void {
  switch (token.kind) {
    case TokenKind.ITEM_ID:
    case TokenKind.CLASS:
      nameDiagnostics(input, token, at);
      return;
    case TokenKind.DOM_REF:
      input.say(
        'placeholder',
        `\`#${token.value}\` is a placeholder for page elements and selects nothing here`,
        at,
      );
      return;
    case TokenKind.REGEX:
      searchDiagnostics(input, token, at);
      return;
    case TokenKind.PROTOCOL:
      protocolDiagnostics(input, token, at);
      return;
    case TokenKind.REFINER:
      return;
  }
}
