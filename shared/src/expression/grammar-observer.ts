/**
 * What the parser tells while it parses (grammar.ts): every atom and refiner it reaches and every place a
 * tolerance rule applies. Positions are token indexes. Analysis listens (dependencies, diagnostics);
 * evaluation alone does not.
 */
import type { AtomToken } from './atoms.js';
import type { CallToken } from './token-kind.js';

/** Listener of one parse; every method is optional. */
export interface GrammarObserver {
  /** An atom is reached; `searchAllowed` is false for search atoms beyond the limit. */
  atom?(token: AtomToken, at: number, searchAllowed: boolean): void;
  /** A refiner is applied; `misplaced` when it is the first of a segment that has no term before it. */
  refiner?(token: CallToken, at: number, misplaced: boolean): void;
  /** A refiner beyond the per-segment limit is consumed and ignored. */
  ignoredRefiner?(token: CallToken, at: number): void;
  /** The operator at `at` is the last token and is ignored (P4). */
  trailingOperator?(at: number): void;
  /**
   * The operator at `at` was followed by a term slot at `rightAt`: `consumed` when it held a term,
   * `leading` when the segment had no value before the operator (P3).
   */
  operand?(
    at: number,
    rightAt: number,
    consumed: boolean,
    leading: boolean,
  ): void;
  /**
   * The segment of the group opened at `open` ended before token `at` (a `)`, a `,`, anything else, or
   * the end); `empty` when the group holds no token.
   */
  groupEnd?(open: number, at: number, empty: boolean): void;
  /** The group opened at `open` is beyond the depth limit: it and everything after it are ignored (P8). */
  depthLimit?(open: number): void;
  /** Parsing stops at token `at`: it and everything after are ignored (P6). */
  stop?(at: number): void;
}

/** One observer that tells both `first` and `second`, in that order. */
export function observeBoth(
  first: GrammarObserver,
  second: GrammarObserver,
): GrammarObserver {
  return {
    atom: (token, at, allowed) => {
      first.atom?.(token, at, allowed);
      second.atom?.(token, at, allowed);
    },
    refiner: (token, at, misplaced) => {
      first.refiner?.(token, at, misplaced);
      second.refiner?.(token, at, misplaced);
    },
    ignoredRefiner: (token, at) => {
      first.ignoredRefiner?.(token, at);
      second.ignoredRefiner?.(token, at);
    },
    trailingOperator: (at) => {
      first.trailingOperator?.(at);
      second.trailingOperator?.(at);
    },
    operand: (at, rightAt, consumed, leading) => {
      first.operand?.(at, rightAt, consumed, leading);
      second.operand?.(at, rightAt, consumed, leading);
    },
    groupEnd: (open, at, empty) => {
      first.groupEnd?.(open, at, empty);
      second.groupEnd?.(open, at, empty);
    },
    depthLimit: (open) => {
      first.depthLimit?.(open);
      second.depthLimit?.(open);
    },
    stop: (at) => {
      first.stop?.(at);
      second.stop?.(at);
    },
  };
}
