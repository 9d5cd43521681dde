/**
 * Diagnostics for the text the tokenizer skipped (docs/expression-reference.md §2, §8): characters outside
 * the language, empty tokens, leftover `@` of a macro cycle.
 */
import { quote } from './analysis-report.js';
import type { AnalysisReport } from './analysis-report.js';
import type { SourceMap } from '../macros/macro-map.js';

/**
 * Diagnostics for text the tokenizer skipped (docs/expression-reference.md §8): one per piece, runs of plain
 * characters merged.
 */
export function reportSkipped(
  report: AnalysisReport,
  input: { text: string; map: SourceMap; skipped: readonly [number, number][] },
): void {
  const { text, map } = input;
  let run: [number, number] | undefined;
  const flush = (): void => {
    if (run === undefined) return;
    const shown = text.slice(run[0], run[1]);
    const dash = /[\u2010-\u2015\u2212\ufe58\ufe63\uff0d]/.test(shown);
    report.diagnostic(
      'ignored-character',
      dash
        ? `${quote(shown)} is not the WITHOUT operator (only the ASCII \`-\` is): it is skipped and ends the word before it`
        : `${quote(shown)} is not part of the expression language: it is skipped and ends the word before it`,
      map.span(run[0], run[1]),
    );
    run = undefined;
  };
  for (const [start, end] of input.skipped) {
    const special = skippedMessage(text, start, end);
    if (special === undefined) {
      if (run !== undefined && run[1] === start) run[1] = end;
      else {
        flush();
        run = [start, end];
      }
      continue;
    }
    flush();
    report.diagnostic(special.code, special.message, map.span(start, end));
  }
  flush();
}

/** The message for a skipped piece that is an empty token or a leftover `@`; `undefined` for others. */
function skippedMessage(
  text: string,
  start: number,
  end: number,
):
  | {
      code: 'ignored-character' | 'macro-cycle';
      message: string;
    }
  | undefined {
  const piece = text.slice(start, end);
  switch (piece.charAt(0)) {
    case '@':
      return {
        code: 'macro-cycle',
        message:
          'this macro reference is still unexpanded after 10 rounds (a macro that refers to itself?), so the name after `@` is read as a link id',
      };
    case '.':
      return {
        code: 'ignored-character',
        message: '`.` without a tag name right after it is ignored',
      };
    case '#':
      return {
        code: 'ignored-character',
        message: '`#` without a name right after it is ignored',
      };
    case '/':
      return {
        code: 'ignored-character',
        message: 'an empty search pattern `//` is ignored',
      };
    case '*':
      return {
        code: 'ignored-character',
        message: 'an empty refiner is ignored',
      };
    case ':':
      return {
        code: 'ignored-character',
        message: 'an empty protocol is ignored',
      };
    default:
      return end - start > 1
        ? {
            code: 'ignored-character',
            message: `${quote(piece)} is ignored`,
          }
        : undefined;
  }
}
