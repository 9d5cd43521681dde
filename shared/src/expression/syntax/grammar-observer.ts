/**
 * What the parser tells while it parses (grammar.ts): every atom and refiner it reaches and every place a
 * tolerance rule applies. Positions are token indexes. Analysis listens (dependencies, diagnostics);
 * evaluation alone does not.
 */
import type { AtomToken } from '../evaluate/atoms.js';
import type { CallToken } from './token-kind.js';

/** An operator and the term slot after it. */
export interface OperandSlot {
  /** The operator's index. */
  readonly at: number;
  /** The index of the slot's first token. */
  readonly rightAt: number;
  /** Whether the slot held a term (P2). */
  readonly consumed: boolean;
  /** Whether the segment had no value before the operator (P3). */
  readonly leading: boolean;
}

/** How the segment inside a group ended. */
export interface GroupEnd {
  /** The index of the `(`. */
  readonly open: number;
  /** The index of the token after the segment: a `)`, a `,`, anything else, or the end. */
  readonly at: number;
  /** Whether the group holds no token. */
  readonly empty: boolean;
}

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
  /** An operator was followed by a term slot (not the end). */
  operand?(slot: OperandSlot): void;
  /** The segment of a group ended. */
  groupEnd?(group: GroupEnd): void;
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
    operand: (slot) => {
      first.operand?.(slot);
      second.operand?.(slot);
    },
    groupEnd: (group) => {
      first.groupEnd?.(group);
      second.groupEnd?.(group);
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
