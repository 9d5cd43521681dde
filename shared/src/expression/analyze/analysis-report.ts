/**
 * Collects what the analysis of one expression finds: diagnostics (one severity per code, one plain
 * phrase per problem, located in the original text) and dependencies with their validity bounds.
 */
import type {
  Diagnostic,
  DiagnosticSeverity,
  ExpressionDiagnosticCode,
} from '../../schemas/index.js';
import type { SourceSpan } from '../macros/macro-map.js';

/** What an answer depends on besides the config. */
export type DependencyKind = 'clock' | 'random' | 'handler';

/** One dependency: its kind and where the expression asks for it (offsets into the original text). */
export interface Dependency {
  readonly kind: DependencyKind;
  readonly start: number;
  readonly end: number;
}

/** Most diagnostics reported for one expression; the last slot says how many more there were. */
export const MAX_DIAGNOSTICS = 100;

/** The severity of each code: one place, so a code never changes severity between call sites. */
const SEVERITY: Readonly<Record<ExpressionDiagnosticCode, DiagnosticSeverity>> =
  {
    'empty-expression': 'info',
    'unknown-macro': 'warning',
    'macro-cycle': 'warning',
    'expansion-too-long': 'error',
    'token-limit': 'error',
    'ignored-character': 'warning',
    'unknown-id': 'warning',
    'unknown-tag': 'warning',
    'hyphenated-name': 'warning',
    placeholder: 'info',
    'unknown-search-pattern': 'warning',
    'unsafe-search-pattern': 'warning',
    'search-pattern-limit': 'warning',
    'unknown-protocol': 'warning',
    'invalid-protocol-arguments': 'warning',
    'unknown-refiner': 'warning',
    'invalid-refiner-argument': 'warning',
    'misplaced-refiner': 'warning',
    'refiner-limit': 'warning',
    'empty-parentheses': 'warning',
    'unclosed-parenthesis': 'info',
    'depth-limit': 'error',
    'trailing-operator': 'warning',
    'missing-operand': 'warning',
    'doubled-operator': 'warning',
    'leading-operator': 'info',
    'parsing-stops': 'error',
    'too-many-diagnostics': 'info',
  };

/** Longest piece of expression text quoted in a message. */
const QUOTE_MAX = 40;

/** `text` in backticks, shortened when long. */
export function quote(text: string): string {
  const shown =
    text.length > QUOTE_MAX ? `${text.slice(0, QUOTE_MAX - 1)}…` : text;
  return `\`${shown}\``;
}

/** " (in macro @a → @b)" for text that came from macros, else nothing. */
function macroNote(macros: readonly string[]): string {
  if (macros.length === 0) return '';
  // A cycle nests the same names ten deep: show the outermost two and the innermost one.
  const names = macros.map((name) => `@${name}`);
  const shown =
    names.length > 3 ? [...names.slice(0, 2), '…', names.at(-1)] : names;
  return ` (in macro ${shown.join(' → ')})`;
}

/** The findings of one analysis, in the order they were made. */
export class AnalysisReport {
  readonly #diagnostics: Diagnostic[] = [];
  readonly #seen = new Set<string>();
  #dropped = 0;
  readonly dependencies: Dependency[] = [];
  /** The earliest validity bound reported so far. */
  validUntil = Infinity;

  /**
   * Adds a diagnostic at `span` (offsets in the original text). The same problem at the same place is
   * kept once: a macro used many times reports its problem once per reference.
   */
  diagnostic(
    code: ExpressionDiagnosticCode,
    message: string,
    span: SourceSpan,
  ): void {
    const text = `${message}${macroNote(span.macros)}`;
    const key = `${code}\u0000${span.start}\u0000${span.end}\u0000${text}`;
    if (this.#seen.has(key)) return;
    this.#seen.add(key);
    if (this.#diagnostics.length >= MAX_DIAGNOSTICS - 1) {
      this.#dropped++;
      return;
    }
    this.#diagnostics.push({
      severity: SEVERITY[code],
      code,
      message: text,
      start: span.start,
      end: Math.max(span.start, span.end),
    });
  }

  /** Records a dependency at `span` and lowers {@link validUntil} to `until`. */
  dependency(kind: DependencyKind, span: SourceSpan, until: number): void {
    this.dependencies.push({ kind, start: span.start, end: span.end });
    if (until < this.validUntil) this.validUntil = until;
  }

  /** The diagnostics ordered by position (stable), with a final note when some were left out. */
  diagnostics(): Diagnostic[] {
    const out = this.#diagnostics
      .map((d, i) => [d, i] as const)
      .sort(([a, i], [b, j]) => a.start - b.start || a.end - b.end || i - j)
      .map(([d]) => d);
    if (this.#dropped > 0) {
      out.push({
        severity: SEVERITY['too-many-diagnostics'],
        code: 'too-many-diagnostics',
        message: `${this.#dropped} more problems are not listed`,
        start: 0,
        end: 0,
      });
    }
    return out;
  }
}
