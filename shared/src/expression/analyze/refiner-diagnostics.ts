/**
 * Diagnostics of a refiner the parse applies (docs/expression-reference.md §9): unknown names, arguments
 * that make it change nothing, fields no link has. Names and arguments come from the one refiner table.
 */
import { refinerText } from './analysis-input.js';
import type { AnalysisInput } from './analysis-input.js';
import { quote } from './analysis-report.js';
import {
  isFieldName,
  readInteger,
  refinerTraits,
} from '../evaluate/refiners.js';
import type { CallToken } from '../syntax/token-kind.js';

/** The hint for an unknown refiner name that is a known one written differently. */
function nameHint(name: string): string {
  const trimmed = name.trim();
  if (refinerTraits(trimmed) !== undefined) return ' (no spaces inside `*…*`)';
  return refinerTraits(trimmed.toLowerCase()) !== undefined
    ? ' (refiner names are lower case)'
    : '';
}

/** Reports what is wrong with the refiner `token` at `at`. */
export function refinerDiagnostics(
  input: AnalysisInput,
  token: CallToken,
  at: number,
): void {
  const { name } = token;
  const arg = token.args[0];
  const traits = refinerTraits(name);
  if (traits === undefined) {
    input.say(
      'unknown-refiner',
      `unknown refiner ${quote(refinerText(token))}${nameHint(name)}: it changes nothing`,
      at,
    );
    return;
  }
  switch (traits.argument) {
    case 'count':
    case 'non-negative count': {
      const n = readInteger(arg);
      if (Number.isNaN(n)) {
        input.say(
          'invalid-refiner-argument',
          `${quote(refinerText(token))} needs a number, as in \`*${name}:5*\`: it changes nothing`,
          at,
        );
      } else if (traits.argument === 'non-negative count' && n < 0) {
        input.say(
          'invalid-refiner-argument',
          `a negative limit changes nothing`,
          at,
        );
      }
      return;
    }
    case 'field':
      if (arg !== undefined && arg !== '' && !isFieldName(arg)) {
        input.say(
          'invalid-refiner-argument',
          `${quote(arg)} is not a link field, so ${quote(refinerText(token))} sees the same value on every link`,
          at,
        );
      }
      return;
    case 'none':
      return;
  }
}
