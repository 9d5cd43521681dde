/**
 * Runs `name-name…` written without spaces (`.new-york`, `new-york-city`), which the grammar reads as
 * WITHOUT (docs/expression-reference.md §2): analysis reports each run once, as the name probably meant.
 */
import { TokenKind } from './token-kind.js';
import type { Token } from './token-kind.js';

/** One run. */
export interface HyphenRun {
  /** Index of the last token of the run. */
  readonly last: number;
  /** The name as the user probably meant it, e.g. `new-york`. */
  readonly name: string;
}

/** The runs of a token list. */
export interface HyphenRuns {
  /** Runs keyed by the index of their first token. */
  readonly runs: ReadonlyMap<number, HyphenRun>;
  /** Tokens inside a run after its first: reported with the run, never on their own. */
  readonly inRun: ReadonlySet<number>;
}

/**
 * Finds the runs: a CLASS or ITEM_ID, then one or more `-` + ITEM_ID pairs, each touching the previous
 * token.
 */
export function findHyphenRuns(input: {
  readonly tokens: readonly Token[];
  readonly starts: readonly number[];
  readonly ends: readonly number[];
}): HyphenRuns {
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
