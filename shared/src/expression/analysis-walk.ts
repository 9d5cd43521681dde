/**
 * The analysis pass over the tokens of an expanded expression. It follows the evaluator's grammar rule by
 * rule (evaluate.ts: the same `parseX` structure and the same tolerance rules, docs/expressions.md §8; that
 * control flow depends on the tokens only),
 * so it knows exactly which atoms and refiners the evaluator reaches, without computing any link list.
 * For each reached one it reports problems and what the answer depends on.
 */
import { quote } from './analysis-report.js';
import type { AnalysisReport } from './analysis-report.js';
import type { EngineCache } from './engine-cache.js';
import { MAX_DEPTH } from './evaluate.js';
import type { SourceMap, SourceSpan } from './macro-map.js';
import { locationFilter } from './protocols/location.js';
import { parseTimeArgs } from './protocols/time.js';
import { MAX_REFINERS } from './refiners.js';
import { MAX_SEARCH_ATOMS, parseAge } from './search-patterns.js';
import { TokenKind, isOperator } from './token-kind.js';
import type { CallToken, NameToken, RegexToken, Token } from './token-kind.js';
import type { FilterProtocolHandler, SearchPatternProblem } from './types.js';
import { LINK_FIELD_ORDER } from './types.js';
import {
  dependsOnClock,
  isEmptyBetween,
  sinceValidUntil,
  timeValidUntil,
} from './valid-until.js';

/** Refiner names the engine knows (docs/expressions.md §5). */
const REFINERS: ReadonlySet<string> = new Set([
  'sort',
  'reverse',
  'limit',
  'skip',
  'shuffle',
  'unique',
]);

/** Names `*sort:F*` and `*unique:F*` can use: link fields and `id` (docs/expressions.md §5). */
const SORT_FIELDS: ReadonlySet<string> = new Set([...LINK_FIELD_ORDER, 'id']);

/** Characters after a colon that end a protocol token (docs/expressions.md §7), for a hint. */
const OPERATOR_CHARS = /[\s+|,()*/]/;

const SEARCH_PROBLEMS: Readonly<Record<SearchPatternProblem, string>> = {
  hyphen: 'its key contains `-`',
  shape: 'it is neither a string nor an object with a string `pattern`',
  invalid: 'its pattern is not a valid regular expression',
  unsafe:
    'its pattern could take exponential time (a repeated group that holds a repetition)',
  unsupported:
    'its pattern uses syntax the linear-time engine does not support (lookaround, backreferences, …)',
};

/** Everything the walk reads. */
export interface WalkInput {
  readonly tokens: readonly Token[];
  readonly starts: readonly number[];
  readonly ends: readonly number[];
  /** The expanded text the tokens were read from. */
  readonly text: string;
  readonly map: SourceMap;
  /** End of the expression in the original text (trailing whitespace excluded). */
  readonly sourceEnd: number;
  readonly cache: EngineCache;
  readonly handlers: ReadonlyMap<string, FilterProtocolHandler>;
  readonly builtinProtocols: boolean;
  readonly now: number;
}

/** A run `name-name…` written without spaces, read as WITHOUT (docs/expressions.md §2). */
interface HyphenRun {
  /** Index of the last token of the run. */
  readonly last: number;
  /** The name as the user probably meant it, e.g. `new-york`. */
  readonly name: string;
}

/** Whether a term consumed any token (an empty slot consumes none). */
type Consumed = boolean;

/** One walk over one token list, mirroring `Evaluator`. */
export class AnalysisWalk {
  readonly #in: WalkInput;
  readonly #report: AnalysisReport;
  readonly #runs: ReadonlyMap<number, HyphenRun>;
  /** Tokens inside a hyphen run after its first: reported with the run, never on their own. */
  readonly #inRun: ReadonlySet<number>;
  #pos = 0;
  #depth = 0;
  #searchAtoms = 0;
  /** Set when a `,` ended a group early, to explain the `)` that then stops the parse. */
  #commaLeftGroup = false;

  constructor(input: WalkInput, report: AnalysisReport) {
    this.#in = input;
    this.#report = report;
    const { runs, inRun } = findHyphenRuns(input);
    this.#runs = runs;
    this.#inRun = inRun;
  }

  /** query := segment { "," segment }; anything else after a segment stops the parse. */
  walk(): void {
    for (;;) {
      this.#segment();
      if (this.#peek()?.kind !== TokenKind.COMMA) break;
      this.#pos++;
    }
    if (this.#pos < this.#in.tokens.length) this.#stopsAt(this.#pos);
  }

  /** segment := term { operator term } { refiner } */
  #segment(): void {
    const first = this.#term();
    let leading = !first;
    let hasValue = first;
    for (let op = this.#peek(); isOperator(op); op = this.#peek()) {
      const at = this.#pos;
      this.#pos++;
      if (this.#pos >= this.#in.tokens.length) {
        this.#say(
          'trailing-operator',
          `${symbol(op)} at the end has nothing after it and is ignored`,
          at,
        );
        break;
      }
      const rightAt = this.#pos;
      const right = this.#term();
      if (!right) this.#missingOperand(at, rightAt);
      else if (leading) {
        this.#say(
          'leading-operator',
          `a leading ${symbol(op)} is ignored: the segment is just what follows it`,
          at,
        );
      }
      leading = false;
      hasValue = true;
    }
    this.#refiners(hasValue);
  }

  /** term := "(" segment ")" | atom — or an empty slot. */
  #term(): Consumed {
    const token = this.#peek();
    if (token === undefined) return false;
    switch (token.kind) {
      case TokenKind.LPAREN:
        return this.#group();
      case TokenKind.ITEM_ID:
      case TokenKind.CLASS:
      case TokenKind.DOM_REF:
      case TokenKind.REGEX:
      case TokenKind.PROTOCOL:
        this.#atom(token, this.#pos);
        this.#pos++;
        return true;
      case TokenKind.REFINER:
      case TokenKind.PLUS:
      case TokenKind.PIPE:
      case TokenKind.MINUS:
      case TokenKind.COMMA:
      case TokenKind.RPAREN:
        return false;
    }
  }

  /** "(" segment ")" with lenient closing and the depth limit (docs/expressions.md §8). */
  #group(): Consumed {
    const open = this.#pos;
    this.#pos++;
    if (this.#depth >= MAX_DEPTH) {
      this.#report.diagnostic(
        'depth-limit',
        `parentheses nested deeper than ${MAX_DEPTH}: this group and everything after it are ignored`,
        this.#toEnd(open),
      );
      this.#pos = this.#in.tokens.length;
      return true;
    }
    this.#depth++;
    const inner = this.#pos;
    this.#segment();
    const next = this.#peek();
    if (next?.kind === TokenKind.RPAREN) {
      if (this.#pos === inner) {
        this.#report.diagnostic(
          'empty-parentheses',
          'empty parentheses select nothing',
          this.#span(open, this.#pos),
        );
      }
      this.#pos++;
    } else if (next?.kind === TokenKind.COMMA) {
      this.#commaLeftGroup = true;
      this.#say(
        'unclosed-parenthesis',
        'a `,` inside parentheses ends the group here: what follows is a new top-level segment',
        this.#pos,
      );
    } else if (next === undefined && this.#pos === inner) {
      this.#say(
        'empty-parentheses',
        'this `(` is never closed and holds nothing, so it selects nothing',
        open,
      );
    } else if (next === undefined) {
      this.#say(
        'unclosed-parenthesis',
        'this `(` is never closed (it is read as closed at the end)',
        open,
      );
    }
    this.#depth--;
    return true;
  }

  /** { refiner }: ten per segment apply, further ones are consumed and ignored. */
  #refiners(hasValue: boolean): void {
    let count = 0;
    for (let token = this.#peek(); token?.kind === TokenKind.REFINER;) {
      const at = this.#pos;
      this.#pos++;
      if (count >= MAX_REFINERS) {
        this.#say(
          'refiner-limit',
          `only ${MAX_REFINERS} refiners apply per segment: ${quote(refinerText(token))} is ignored`,
          at,
        );
      } else {
        if (count === 0 && !hasValue) {
          this.#say(
            'misplaced-refiner',
            `${quote(refinerText(token))} has no links before it to refine: refiners go after the links they act on`,
            at,
          );
        }
        this.#refiner(token, at);
      }
      count++;
      token = this.#peek();
    }
  }

  #refiner(token: CallToken, at: number): void {
    const { name } = token;
    const arg = token.args[0];
    if (name === 'shuffle') {
      this.#report.dependency('random', this.#span(at, at), this.#in.now);
      return;
    }
    if (!REFINERS.has(name)) {
      const trimmed = name.trim();
      const hint = REFINERS.has(trimmed)
        ? ' (no spaces inside `*…*`)'
        : REFINERS.has(trimmed.toLowerCase())
          ? ' (refiner names are lower case)'
          : '';
      this.#say(
        'unknown-refiner',
        `unknown refiner ${quote(refinerText(token))}${hint}: it changes nothing`,
        at,
      );
      return;
    }
    if (name === 'limit' || name === 'skip') {
      const n = arg === undefined ? NaN : Number.parseInt(arg, 10);
      if (Number.isNaN(n)) {
        this.#say(
          'invalid-refiner-argument',
          `${quote(refinerText(token))} needs a number, as in \`*${name}:5*\`: it changes nothing`,
          at,
        );
      } else if (name === 'limit' && n < 0) {
        this.#say(
          'invalid-refiner-argument',
          `a negative limit changes nothing`,
          at,
        );
      }
    } else if (
      (name === 'sort' || name === 'unique') &&
      arg !== undefined &&
      arg !== '' &&
      !SORT_FIELDS.has(arg)
    ) {
      this.#say(
        'invalid-refiner-argument',
        `${quote(arg)} is not a link field, so ${quote(refinerText(token))} sees the same value on every link`,
        at,
      );
    }
  }

  #atom(token: NameToken | RegexToken | CallToken, at: number): void {
    switch (token.kind) {
      case TokenKind.ITEM_ID:
      case TokenKind.CLASS:
        this.#name(token, at);
        return;
      case TokenKind.DOM_REF:
        this.#say(
          'placeholder',
          `\`#${token.value}\` is a placeholder for page elements and selects nothing here`,
          at,
        );
        return;
      case TokenKind.REGEX:
        this.#search(token, at);
        return;
      case TokenKind.PROTOCOL:
        this.#protocol(token, at);
        return;
      case TokenKind.REFINER:
        return;
    }
  }

  #name(token: NameToken, at: number): void {
    const run = this.#runs.get(at);
    const { prepared } = this.#in.cache;
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
      this.#report.diagnostic(
        'hyphenated-name',
        known === true
          ? `the ${isTag ? 'tag' : 'id'} ${quote(run.name)} contains \`-\`, so no expression can select it: ${quote(written)} reads as ${quote(reading)} without ${quote(without)}`
          : `${quote(written)} reads as ${quote(reading)} without ${quote(without)}: \`-\` is the WITHOUT operator, and tags and ids cannot contain it`,
        this.#span(at, run.last),
      );
      return;
    }
    if (this.#inRun.has(at)) return;
    if (token.kind === TokenKind.CLASS) {
      if (!prepared.tagIndex.has(token.value)) {
        this.#say(
          'unknown-tag',
          `no link has the tag ${quote(token.value)}`,
          at,
        );
      }
      return;
    }
    // A name right after a leftover `@` was reported as a macro cycle.
    const afterAt =
      this.#in.text.charAt((this.#in.starts[at] ?? 0) - 1) === '@';
    if (!prepared.position.has(token.value) && !afterAt) {
      this.#say('unknown-id', `no link has the id ${quote(token.value)}`, at);
    }
  }

  #search(token: RegexToken, at: number): void {
    this.#searchAtoms++;
    if (this.#searchAtoms > MAX_SEARCH_ATOMS) {
      this.#say(
        'search-pattern-limit',
        `only ${MAX_SEARCH_ATOMS} search patterns are used per expression: this one selects nothing`,
        at,
      );
      return;
    }
    const { prepared } = this.#in.cache;
    const entry = prepared.searchPatterns.get(token.key);
    if (entry === undefined) {
      const problem = prepared.dropped?.searchPatterns.get(token.key);
      if (problem !== undefined) {
        this.#say(
          'unsafe-search-pattern',
          `the search pattern ${quote(token.key)} cannot be used because ${SEARCH_PROBLEMS[problem]}: it selects nothing`,
          at,
        );
        return;
      }
      const start = this.#in.starts[at] ?? 0;
      const unclosed = this.#in.text.indexOf('/', start + 1) === -1;
      const hint = unclosed
        ? ' (it has no closing `/`, so its key runs to the end)'
        : prepared.searchPatterns.has(token.key.trim())
          ? ' (spaces in a key count)'
          : '';
      this.#say(
        'unknown-search-pattern',
        `no search pattern is named ${quote(token.key)}${hint}`,
        at,
      );
      return;
    }
    if (entry.regex === null) {
      this.#say(
        'unsafe-search-pattern',
        `the search pattern ${quote(token.key)} cannot be used because ${SEARCH_PROBLEMS.unsupported}: it selects nothing`,
        at,
      );
      return;
    }
    const age = parseAge(entry.options['age']);
    if (age > 0) {
      const { now, cache } = this.#in;
      this.#report.dependency(
        'clock',
        this.#span(at, at),
        sinceValidUntil(age, now, cache.sortedCreatedAt),
      );
    }
  }

  #protocol(token: CallToken, at: number): void {
    const { name, args } = token;
    const { now, cache } = this.#in;
    if (this.#in.handlers.has(name)) {
      this.#report.dependency('handler', this.#span(at, at), now);
      return;
    }
    const builtin = name === 'time' || name === 'location';
    if (builtin && this.#in.builtinProtocols) {
      if (name === 'location') {
        if (locationFilter(args) === null) {
          this.#say(
            'invalid-protocol-arguments',
            `${quote(protocolText(token))} selects nothing: use \`:location:\`, \`:location:radius:LAT,LNG:5km:\` or \`:location:bbox:LAT,LNG:LAT,LNG:\``,
            at,
          );
        }
        return;
      }
      const window = parseTimeArgs(args);
      if (window === null) {
        this.#say(
          'invalid-protocol-arguments',
          `${quote(protocolText(token))} selects nothing: use \`today\`, a duration such as \`3d\`, two durations, or one or two dates`,
          at,
        );
      } else if (window.kind === 'between' && isEmptyBetween(window)) {
        this.#say(
          'invalid-protocol-arguments',
          `${quote(protocolText(token))} selects nothing: the nearer duration comes first, as in \`:time:3d:9d:\``,
          at,
        );
      } else if (dependsOnClock(window)) {
        this.#report.dependency(
          'clock',
          this.#span(at, at),
          timeValidUntil(window, now, cache.sortedTimeStamps),
        );
      }
      return;
    }
    const hint = [name, ...args].some((part) => OPERATOR_CHARS.test(part))
      ? ' (a protocol runs to the next `:`: is a closing `:` missing?)'
      : '';
    const message = builtin
      ? `built-in protocols are turned off here, so ${quote(protocolText(token))} selects nothing`
      : cache.prepared.protocolNames.has(name)
        ? `the config declares ${quote(`:${name}:`)} but the server has no filter for it: it selects nothing`
        : `unknown protocol ${quote(`:${name}:`)}${hint}: it selects nothing`;
    this.#say('unknown-protocol', message, at);
  }

  /** Reports an operator whose right operand slot is empty, at the operator and what follows. */
  #missingOperand(at: number, rightAt: number): void {
    const op = this.#in.tokens[at];
    const next = this.#in.tokens[rightAt];
    if (op === undefined || next === undefined) return;
    if (isOperator(next)) {
      this.#report.diagnostic(
        'doubled-operator',
        `two operators in a row: ${symbol(op)} has no right operand`,
        this.#span(at, rightAt),
      );
      return;
    }
    const before = next.kind === TokenKind.REFINER ? 'a refiner' : symbol(next);
    const effect =
      op.kind === TokenKind.PLUS
        ? 'so it selects nothing'
        : 'so it has no effect';
    this.#report.diagnostic(
      'missing-operand',
      `${symbol(op)} has no right operand before ${before}, ${effect}`,
      this.#span(at, at),
    );
  }

  /** Reports the token where parsing stops, up to the end of the expression. */
  #stopsAt(at: number): void {
    const token = this.#in.tokens[at];
    if (token === undefined) return;
    const previous = this.#in.tokens[at - 1];
    let message: string;
    if (token.kind === TokenKind.RPAREN) {
      message = this.#commaLeftGroup
        ? 'this `)` closes nothing (a `,` inside the parentheses already ended the group): it and everything after it are ignored'
        : 'unmatched `)`: it and everything after it are ignored';
    } else if (isOperator(token) && previous?.kind === TokenKind.REFINER) {
      message = `refiners end a segment, so ${symbol(token)} after them stops the expression: everything from here on is ignored (use parentheses or a comma)`;
    } else {
      message = `${quote(this.#textOf(at))} follows without an operator before it: the expression stops here and everything from here on is ignored`;
    }
    this.#report.diagnostic('parsing-stops', message, this.#toEnd(at));
  }

  /** Reports `code` on the token at `at`. */
  #say(
    code: Parameters<AnalysisReport['diagnostic']>[0],
    message: string,
    at: number,
  ): void {
    this.#report.diagnostic(code, message, this.#span(at, at));
  }

  /** The original-text span of tokens `first` to `last`, inclusive. */
  #span(first: number, last: number): SourceSpan {
    const { starts, ends, map } = this.#in;
    return map.span(starts[first] ?? 0, ends[last] ?? 0);
  }

  /** From token `at` to the end of the expression. */
  #toEnd(at: number): SourceSpan {
    const span = this.#span(at, at);
    return { ...span, end: Math.max(span.end, this.#in.sourceEnd) };
  }

  /** The expanded text of token `at`. */
  #textOf(at: number): string {
    return this.#in.text.slice(this.#in.starts[at], this.#in.ends[at]);
  }

  #peek(): Token | undefined {
    return this.#in.tokens[this.#pos];
  }
}

/** How an operator or punctuation token is written, in backticks. */
function symbol(token: Token): string {
  switch (token.kind) {
    case TokenKind.PLUS:
      return '`+`';
    case TokenKind.PIPE:
      return '`|`';
    case TokenKind.MINUS:
      return '`-`';
    case TokenKind.COMMA:
      return '`,`';
    case TokenKind.LPAREN:
      return '`(`';
    case TokenKind.RPAREN:
      return '`)`';
    case TokenKind.ITEM_ID:
    case TokenKind.CLASS:
    case TokenKind.DOM_REF:
    case TokenKind.REGEX:
    case TokenKind.PROTOCOL:
    case TokenKind.REFINER:
      return 'a term';
  }
}

/** `*name:args*` as written (name and arguments rejoined). */
function refinerText(token: CallToken): string {
  return `*${[token.name, ...token.args].join(':')}*`;
}

/** `:name:args:` as read (name and arguments rejoined). */
function protocolText(token: CallToken): string {
  return `:${[token.name, ...token.args].join(':')}:`;
}

/**
 * Finds `name-name…` runs written without spaces (`.new-york`, `new-york-city`): a CLASS or ITEM_ID, then
 * one or more `-` + ITEM_ID pairs, each touching the previous token. Keyed by the index of the first token.
 */
function findHyphenRuns(input: WalkInput): {
  runs: Map<number, HyphenRun>;
  inRun: Set<number>;
} {
  const { tokens, starts, ends } = input;
  const runs = new Map<number, HyphenRun>();
  const inRun = new Set<number>();
  const touches = (i: number): boolean => ends[i - 1] === starts[i];
  for (let i = 0; i < tokens.length; i++) {
    const head = tokens[i];
    if (head?.kind !== TokenKind.CLASS && head?.kind !== TokenKind.ITEM_ID) {
      continue;
    }
    let name = head.value;
    let last = i;
    for (;;) {
      const minus = tokens[last + 1];
      const word = tokens[last + 2];
      if (
        minus?.kind !== TokenKind.MINUS ||
        word?.kind !== TokenKind.ITEM_ID ||
        !touches(last + 1) ||
        !touches(last + 2)
      ) {
        break;
      }
      name += `-${word.value}`;
      inRun.add(last + 2);
      last += 2;
    }
    if (last > i) {
      runs.set(i, { last, name });
      i = last;
    }
  }
  return { runs, inRun };
}
