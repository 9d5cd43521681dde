/**
 * Diagnostics as the parse reaches them (docs/expression-reference.md §4 to §10): where a tolerance rule
 * applies (an ignored operator, an empty slot, an unclosed group, the limits, where parsing stops) and what
 * is wrong with each atom and refiner reached. Only made when diagnostics are asked for.
 */
import { refinerText, symbol } from './analysis-input.js';
import type { AnalysisInput } from './analysis-input.js';
import { quote } from './analysis-report.js';
import { atomDiagnostics, searchLimitDiagnostic } from './atom-diagnostics.js';
import { MAX_DEPTH } from '../syntax/grammar.js';
import type { GrammarObserver, GroupEnd } from '../syntax/grammar-observer.js';
import { refinerDiagnostics } from './refiner-diagnostics.js';
import { MAX_REFINERS } from '../evaluate/refiners.js';
import { TokenKind, isOperator } from '../syntax/token-kind.js';

/** Reports an operator whose right operand slot is empty, at the operator and what follows. */
function missingOperand(
  input: AnalysisInput,
  at: number,
  rightAt: number,
): void {
  const op = input.tokens[at];
  const next = input.tokens[rightAt];
  if (op === undefined || next === undefined) return;
  if (isOperator(next)) {
    input.report.diagnostic(
      'doubled-operator',
      `two operators in a row: ${symbol(op)} has no right operand`,
      input.span(at, rightAt),
    );
    return;
  }
  const before = next.kind === TokenKind.REFINER ? 'a refiner' : symbol(next);
  const effect =
    op.kind === TokenKind.PLUS
      ? 'so it selects nothing'
      : 'so it has no effect';
  input.report.diagnostic(
    'missing-operand',
    `${symbol(op)} has no right operand before ${before}, ${effect}`,
    input.span(at, at),
  );
}

/** Reports how the group opened at `open` ended, before token `at`. */
function groupEnd(input: AnalysisInput, group: GroupEnd): void {
  const { open, at, empty } = group;
  const next = input.tokens[at];
  if (next?.kind === TokenKind.RPAREN) {
    if (empty) {
      input.report.diagnostic(
        'empty-parentheses',
        'empty parentheses select nothing',
        input.span(open, at),
      );
    }
  } else if (next?.kind === TokenKind.COMMA) {
    input.say(
      'unclosed-parenthesis',
      'a `,` inside parentheses ends the group here: what follows is a new top-level segment',
      at,
    );
  } else if (next === undefined && empty) {
    input.say(
      'empty-parentheses',
      'this `(` is never closed and holds nothing, so it selects nothing',
      open,
    );
  } else if (next === undefined) {
    input.say(
      'unclosed-parenthesis',
      'this `(` is never closed (it is read as closed at the end)',
      open,
    );
  }
}

/** Reports the token where parsing stops, up to the end of the expression. */
function stopsAt(
  input: AnalysisInput,
  at: number,
  commaLeftGroup: boolean,
): void {
  const token = input.tokens[at];
  if (token === undefined) return;
  const previous = input.tokens[at - 1];
  let message: string;
  if (token.kind === TokenKind.RPAREN) {
    message = commaLeftGroup
      ? 'this `)` closes nothing (a `,` inside the parentheses already ended the group): it and everything after it are ignored'
      : 'unmatched `)`: it and everything after it are ignored';
  } else if (isOperator(token) && previous?.kind === TokenKind.REFINER) {
    message = `refiners end a segment, so ${symbol(token)} after them stops the expression: everything from here on is ignored (use parentheses or a comma)`;
  } else {
    message = `${quote(input.textOf(at))} follows without an operator before it: the expression stops here and everything from here on is ignored`;
  }
  input.report.diagnostic('parsing-stops', message, input.toEnd(at));
}

/** The observer that reports diagnostics in `input.report`. */
export function diagnosticObserver(input: AnalysisInput): GrammarObserver {
  /** Set when a `,` ended a group early, to explain the `)` that then stops the parse. */
  let commaLeftGroup = false;
  return {
    atom: (token, at, searchAllowed) => {
      if (token.kind === TokenKind.REGEX && !searchAllowed) {
        searchLimitDiagnostic(input, at);
      } else {
        atomDiagnostics(input, token, at);
      }
    },
    refiner: (token, at, misplaced) => {
      if (misplaced) {
        input.say(
          'misplaced-refiner',
          `${quote(refinerText(token))} has no links before it to refine: refiners go after the links they act on`,
          at,
        );
      }
      refinerDiagnostics(input, token, at);
    },
    ignoredRefiner: (token, at) =>
      input.say(
        'refiner-limit',
        `only ${MAX_REFINERS} refiners apply per segment: ${quote(refinerText(token))} is ignored`,
        at,
      ),
    trailingOperator: (at) => {
      const op = input.tokens[at];
      if (op === undefined) return;
      input.say(
        'trailing-operator',
        `${symbol(op)} at the end has nothing after it and is ignored`,
        at,
      );
    },
    operand: ({ at, rightAt, consumed, leading }) => {
      const op = input.tokens[at];
      if (!consumed) missingOperand(input, at, rightAt);
      else if (leading && op !== undefined) {
        input.say(
          'leading-operator',
          `a leading ${symbol(op)} is ignored: the segment is just what follows it`,
          at,
        );
      }
    },
    groupEnd: (group) => {
      if (input.tokens[group.at]?.kind === TokenKind.COMMA) {
        commaLeftGroup = true;
      }
      groupEnd(input, group);
    },
    depthLimit: (open) =>
      input.report.diagnostic(
        'depth-limit',
        `parentheses nested deeper than ${MAX_DEPTH}: this group and everything after it are ignored`,
        input.toEnd(open),
      ),
    stop: (at) => stopsAt(input, at, commaLeftGroup),
  };
}
