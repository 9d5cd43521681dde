/**
 * The expression tester's engine: the shared expression engine run in this browser on the draft, so
 * it works offline and shows what unsaved edits do. The prepared config is kept per draft version (each
 * edit makes a new draft object) and the last answer per expression, so renders cost nothing new.
 * Plus the hints that go with a diagnostic: "did you mean" (the config's tags, macros or ids a few
 * edits away) and that names are case-sensitive.
 */
import {
  closestNames,
  prepareConfig,
  resolveWithAnalysis,
} from '@linkconfig/shared';
import type {
  Diagnostic,
  LinkConfig,
  PreparedConfig,
  ResolvedLink,
} from '@linkconfig/shared';
import { expressionDiagnostics, markSpan } from './expression-check.js';

/** What the engine gives for an expression on the draft. */
export interface LocalRun {
  expression: string;
  results: ResolvedLink[];
  /** Most serious first, then in the order of the text. */
  diagnostics: Diagnostic[];
  prepared: PreparedConfig;
}

const preparedConfigs = new WeakMap<object, PreparedConfig>();
const lastRuns = new WeakMap<PreparedConfig, LocalRun>();

/** The draft prepared for the engine (once per draft version). */
function preparedOf(draft: LinkConfig): PreparedConfig {
  let prepared = preparedConfigs.get(draft);
  if (prepared === undefined) {
    prepared = prepareConfig(draft);
    preparedConfigs.set(draft, prepared);
  }
  return prepared;
}

/** Runs `expression` on `draft` here, with the engine's diagnostics. */
export function testLocally(draft: LinkConfig, expression: string): LocalRun {
  const prepared = preparedOf(draft);
  const last = lastRuns.get(prepared);
  if (last?.expression === expression) return last;
  const { results, analysis } = resolveWithAnalysis(prepared, expression);
  const run: LocalRun = {
    expression,
    results,
    diagnostics: expressionDiagnostics(analysis),
    prepared,
  };
  lastRuns.set(prepared, run);
  return run;
}

/** A hint under a diagnostic, and the expression with the fix applied (when there is one). */
export interface Hint {
  text: string;
  /** The expression with the name replaced. */
  fixed?: string;
  /** What the fix writes, such as `.nyc`. */
  written?: string;
}

/** What kind of name each diagnostic is about, and how it is written. */
const NAMES: Partial<
  Record<Diagnostic['code'], { sigil: string; what: string; plural: string }>
> = {
  'unknown-tag': { sigil: '.', what: 'tag', plural: 'Tags' },
  'unknown-macro': { sigil: '@', what: 'macro', plural: 'Macro names' },
  'unknown-id': { sigil: '', what: 'id', plural: 'Ids' },
};

/** The names of the config a diagnostic's name could have meant. */
function namesFor(
  code: Diagnostic['code'],
  prepared: PreparedConfig,
): string[] {
  if (code === 'unknown-tag') return [...prepared.tagIndex.keys()];
  if (code === 'unknown-macro') return [...prepared.macros.keys()];
  return [...prepared.ids];
}

/**
 * Hints for a diagnostic about an unknown tag, macro or id: the same name in another case (names are
 * case-sensitive), else the names a few edits away.
 */
export function hintsFor(
  diagnostic: Diagnostic,
  expression: string,
  prepared: PreparedConfig,
): Hint[] {
  const kind = NAMES[diagnostic.code];
  if (kind === undefined) return [];
  const span = markSpan(expression, diagnostic);
  const name = span.marked.startsWith(kind.sigil)
    ? span.marked.slice(kind.sigil.length)
    : span.marked;
  if (name === '') return [];
  const names = namesFor(diagnostic.code, prepared);
  const fix = (candidate: string) => ({
    fixed: `${span.before}${kind.sigil}${candidate}${span.after}`,
    written: `${kind.sigil}${candidate}`,
  });
  const sameButCase = names.find(
    (candidate) =>
      candidate !== name && candidate.toLowerCase() === name.toLowerCase(),
  );
  if (sameButCase !== undefined)
    return [
      {
        text: `${kind.plural} are case-sensitive: this config has ${kind.sigil}${sameButCase}.`,
        ...fix(sameButCase),
      },
    ];
  const close = closestNames(name, names, {
    maxDistance: name.length <= 4 ? 1 : 2,
  });
  return close.map((candidate) => ({
    text: `Did you mean ${kind.sigil}${candidate}?`,
    ...fix(candidate),
  }));
}
