/**
 * Diagnostics for a config on its own: what preparation (docs/expressions.md §2, §10) will drop or ignore,
 * so that no expression can ever reach it: hyphenated or reserved names, invalid links, tags, macros and
 * search patterns, and search-pattern options that have no effect. Each finding carries the JSON path of
 * the value concerned. Uses the same rules as preparation (`prepareLink`, the pattern checks, `parseAge`).
 */
import type {
  ConfigDiagnostic,
  ConfigDiagnosticCode,
  DiagnosticSeverity,
} from '../../schemas/index.js';
import { isPlainObject } from '../../util/is-plain-object.js';
import { quote } from './analysis-report.js';
import { BLOCKED_KEYS, ownValue } from '../prepare/clean-value.js';
import { prepareLink } from '../prepare/prepare.js';
import { searchPatternProblem } from '../safety/safe-pattern.js';
import { LIMITS } from '../../schemas/limits.js';
import { parseAge } from '../evaluate/search-patterns.js';

/** Most diagnostics reported for one config; the last slot says how many more there were. */
export const MAX_CONFIG_DIAGNOSTICS = 100;

/** The severity of each code, in one place. */
const SEVERITY: Readonly<Record<ConfigDiagnosticCode, DiagnosticSeverity>> = {
  'invalid-config': 'error',
  'missing-links': 'warning',
  'dropped-link': 'error',
  'unreachable-id': 'warning',
  'reserved-name': 'warning',
  'unreachable-tag': 'warning',
  'dropped-tag': 'warning',
  'unreachable-macro': 'warning',
  'dropped-macro': 'error',
  'unreachable-search-pattern': 'warning',
  'invalid-search-pattern': 'error',
  'unsafe-search-pattern': 'error',
  'ignored-option': 'warning',
  'too-many-diagnostics': 'info',
};

type Path = (string | number)[];

/** Collects config diagnostics up to the cap. */
class ConfigReport {
  readonly out: ConfigDiagnostic[] = [];
  #more = 0;

  add(code: ConfigDiagnosticCode, message: string, path: Path): void {
    if (this.out.length >= MAX_CONFIG_DIAGNOSTICS - 1) {
      this.#more++;
      return;
    }
    this.out.push({ severity: SEVERITY[code], code, message, path });
  }

  finish(): ConfigDiagnostic[] {
    if (this.#more > 0) {
      this.out.push({
        severity: SEVERITY['too-many-diagnostics'],
        code: 'too-many-diagnostics',
        message: `${this.#more} more problems are not listed`,
        path: [],
      });
    }
    return this.out;
  }
}

/** The own keys of a section that must be an object; reports it when it is something else. */
function sectionKeys(
  report: ConfigReport,
  config: Record<string, unknown>,
  section: 'macros' | 'searchPatterns',
): string[] {
  if (!Object.hasOwn(config, section)) return [];
  const value = config[section];
  if (isPlainObject(value)) return Object.keys(value);
  report.add(
    section === 'macros' ? 'dropped-macro' : 'invalid-search-pattern',
    `\`${section}\` must be an object: it is ignored`,
    [section],
  );
  return [];
}

/** A name that preparation drops whatever its value: reserved, or holding `-`. `true` when reported. */
function droppedName(
  report: ConfigReport,
  name: string,
  where: { path: Path; what: string; code: ConfigDiagnosticCode },
): boolean {
  if (BLOCKED_KEYS.has(name)) {
    report.add(
      'reserved-name',
      `${quote(name)} is a reserved name: this ${where.what} is dropped`,
      where.path,
    );
    return true;
  }
  if (!name.includes('-')) return false;
  report.add(
    where.code,
    `${quote(name)} contains \`-\` (the WITHOUT operator), so this ${where.what} is dropped and no expression can reach it`,
    where.path,
  );
  return true;
}

function checkLinks(report: ConfigReport, config: Record<string, unknown>) {
  const allLinks = ownValue(config, 'allLinks');
  if (!isPlainObject(allLinks)) {
    report.add(
      'missing-links',
      'the config has no `allLinks` object, so it has no links',
      ['allLinks'],
    );
    return;
  }
  for (const id of Object.keys(allLinks)) {
    const path = ['allLinks', id];
    if (droppedName(report, id, { path, what: 'link', code: 'unreachable-id' }))
      continue;
    const raw = allLinks[id];
    if (prepareLink(raw) === undefined) {
      report.add(
        'dropped-link',
        isPlainObject(raw)
          ? 'this link has no string `url`, so it is dropped'
          : 'a link must be an object: this one is dropped',
        path,
      );
      continue;
    }
    checkTags(report, { raw: raw as Record<string, unknown>, path });
  }
}

function checkTags(
  report: ConfigReport,
  link: { raw: Record<string, unknown>; path: Path },
): void {
  if (!Object.hasOwn(link.raw, 'tags')) return;
  const tags = link.raw['tags'];
  if (!Array.isArray(tags)) {
    report.add(
      'dropped-tag',
      '`tags` must be an array of strings: it is ignored',
      [...link.path, 'tags'],
    );
    return;
  }
  tags.forEach((tag: unknown, index) => {
    const path = [...link.path, 'tags', index];
    if (typeof tag !== 'string') {
      report.add('dropped-tag', 'a tag must be a string: it is ignored', path);
    } else if (tag.includes('-')) {
      report.add(
        'unreachable-tag',
        `the tag ${quote(tag)} contains \`-\` (the WITHOUT operator), so it is removed and no expression can select it: \`.${tag}\` reads as \`.${tag.split('-')[0] ?? ''}\` without \`${tag.slice(tag.indexOf('-') + 1)}\``,
        path,
      );
    }
  });
}

function checkMacros(report: ConfigReport, config: Record<string, unknown>) {
  const macros = config['macros'] as Record<string, unknown>;
  for (const name of sectionKeys(report, config, 'macros')) {
    const path = ['macros', name];
    if (
      droppedName(report, name, {
        path,
        what: 'macro',
        code: 'unreachable-macro',
      })
    )
      continue;
    const entry = macros[name];
    if (
      !isPlainObject(entry) ||
      typeof ownValue(entry, 'linkItems') !== 'string'
    ) {
      report.add(
        'dropped-macro',
        'a macro must be an object with a string `linkItems`: this one is dropped',
        path,
      );
    }
  }
}

const PATTERN_PROBLEMS = {
  invalid: [
    'invalid-search-pattern',
    'this pattern is not a valid regular expression: the search pattern is dropped',
  ],
  unsafe: [
    'unsafe-search-pattern',
    'this pattern could take exponential time (a repeated group that holds a repetition): the search pattern is dropped',
  ],
  unsupported: [
    'unsafe-search-pattern',
    'this pattern uses syntax the linear-time engine does not support (lookaround, backreferences, …): the search pattern is dropped',
  ],
  too_large: [
    'unsafe-search-pattern',
    `this pattern compiles to more than ${LIMITS.patternProgramMax} steps (large counted repeats such as {1,1000}), too costly to run: the search pattern is dropped`,
  ],
} as const;

const SORTS: ReadonlySet<unknown> = new Set(['alpha', 'newest', 'oldest']);

function checkSearchPatterns(
  report: ConfigReport,
  config: Record<string, unknown>,
) {
  const patterns = config['searchPatterns'] as Record<string, unknown>;
  for (const key of sectionKeys(report, config, 'searchPatterns')) {
    const path = ['searchPatterns', key];
    const entry = patterns[key];
    if (
      droppedName(report, key, {
        path,
        what: 'search pattern',
        code: 'unreachable-search-pattern',
      })
    )
      continue;
    const pattern = isPlainObject(entry) ? ownValue(entry, 'pattern') : entry;
    if (typeof pattern !== 'string') {
      report.add(
        'invalid-search-pattern',
        'a search pattern must be a string or an object with a string `pattern`: this one is dropped',
        path,
      );
      continue;
    }
    const problem = searchPatternProblem(pattern);
    if (problem !== null) {
      const [code, message] = PATTERN_PROBLEMS[problem];
      report.add(
        code,
        message,
        isPlainObject(entry) ? [...path, 'pattern'] : path,
      );
      continue;
    }
    if (isPlainObject(entry)) checkOptions(report, { entry, path });
  }
}

function checkOptions(
  report: ConfigReport,
  pattern: { entry: Record<string, unknown>; path: Path },
): void {
  if (!Object.hasOwn(pattern.entry, 'options')) return;
  const options = pattern.entry['options'];
  const path = [...pattern.path, 'options'];
  if (!isPlainObject(options)) {
    report.add(
      'ignored-option',
      '`options` must be an object: it is ignored',
      path,
    );
    return;
  }
  const age = ownValue(options, 'age');
  if (age !== undefined && parseAge(age) === 0) {
    report.add(
      'ignored-option',
      `${quote(String(age))} is not an age such as \`30d\` (digits, then h, d, w or m; not zero): no age filter applies`,
      [...path, 'age'],
    );
  }
  const fields = ownValue(options, 'fields');
  if (fields !== undefined && typeof fields !== 'string') {
    report.add(
      'ignored-option',
      '`fields` must be a string of field letters such as `"lt"`: it is ignored',
      [...path, 'fields'],
    );
  }
  const sort = ownValue(options, 'sort');
  if (sort !== undefined && !SORTS.has(sort)) {
    report.add(
      'ignored-option',
      '`sort` must be `alpha`, `newest` or `oldest`: results keep catalog order',
      [...path, 'sort'],
    );
  }
}

/**
 * Diagnostics for a config alone (nothing is resolved): everything preparation drops or ignores that an
 * expression might try to reach, each with the JSON path of the value. Never throws.
 *
 * @example
 * analyzeConfig({ allLinks: { 'new-york': { url: 'https://nyc.example' } } });
 * // → [{ severity: 'warning', code: 'unreachable-id', path: ['allLinks', 'new-york'], message: … }]
 */
export function analyzeConfig(config: unknown): ConfigDiagnostic[] {
  const report = new ConfigReport();
  if (!isPlainObject(config)) {
    report.add('invalid-config', 'the config must be a JSON object', []);
    return report.finish();
  }
  try {
    checkLinks(report, config);
    checkMacros(report, config);
    checkSearchPatterns(report, config);
  } catch {
    // Getters or proxies in a hand-made object: report what was found so far.
  }
  return report.finish();
}
