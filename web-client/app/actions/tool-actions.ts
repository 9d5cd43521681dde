/**
 * The two tools: testing an expression on the open config (run in this browser on the draft, so it
 * works offline) and searching every config on the server. Problems with what the person typed are
 * shown beside the field, never in the status. While the expression is typed, the server also checks
 * it (`POST /expressions/check`) a moment after the last keystroke; what it finds beyond the local
 * engine shows under the field. The check never holds up typing or running, and when it cannot run the
 * page says so quietly.
 */
import type { Diagnostic } from '@linkconfig/shared';
import { RemoteStoreError } from '@linkconfig/web-client';
import { checkExpression, runSearch } from '../session/api.js';
import type { SearchMode } from '../session/api.js';
import { LatestCheck } from '../model/expression-check.js';
import { checkRegExp } from '../model/input-checks.js';
import { testLocally } from '../model/local-query.js';
import type { PageContext } from './page-context.js';
import type { ExpressionCheck } from '../state/state.js';

/** How long typing must pause before the expression is checked. */
export const CHECK_DELAY_MS = 250;

/** What is checked: the expression as typed, against a stored config. */
interface CheckRequest {
  expression: string;
  configName: string;
}

/** Expression and search actions. */
export class ToolActions {
  /** Counts searches, so an older answer never replaces a newer one. */
  private searchRun = 0;
  private readonly check = new LatestCheck<CheckRequest, Diagnostic[]>({
    delayMs: CHECK_DELAY_MS,
    run: (request, signal) => {
      const session = this.page.session();
      if (!session) return Promise.reject(new Error('The page is starting.'));
      return checkExpression(request, session.caller, signal);
    },
    onAnswer: (request, diagnostics) => {
      this.page.state.query.check = {
        kind: 'found',
        expression: request.expression,
        diagnostics,
      };
    },
    onFailure: (_request, error) => {
      this.page.state.query.check = checkUnavailable(error);
    },
  });

  constructor(private readonly page: PageContext) {}

  /** The expression field changed. */
  queryInput(expression: string): void {
    const query = this.page.state.query;
    query.expression = expression;
    if (query.outcome?.kind === 'problem') query.outcome = null;
    this.checkExpression();
  }

  /**
   * Checks the expression in the field against the open config after a short pause (again, when the
   * open config changed or the browser came back online). An empty field, or no open config, clears
   * the diagnostics.
   */
  checkExpression(): void {
    const { query, open } = this.page.state;
    if (query.expression.trim() === '' || open === null) {
      this.check.cancel();
      query.check = { kind: 'none' };
    } else if (!navigator.onLine) {
      this.check.cancel();
      query.check = { kind: 'unavailable', reason: 'no-server' };
    } else {
      this.check.schedule({
        expression: query.expression,
        configName: open.name,
      });
    }
  }

  /**
   * Runs the expression in the field (or `example`, put there first) on the open config's draft, in
   * this browser: its results show as it is typed; running says how many match.
   */
  runQuery(example?: string): void {
    const { state } = this.page;
    const query = state.query;
    if (example !== undefined) {
      query.expression = example;
      this.checkExpression();
      this.page.focus('#query-expression');
    }
    const expression = query.expression.trim();
    const open = state.open;
    const problem =
      expression === ''
        ? 'Enter an expression, such as .car | .coffee.'
        : open === null
          ? 'Open a config first: the expression runs on it.'
          : null;
    if (problem !== null || open === null) {
      query.outcome = {
        kind: 'problem',
        message: problem ?? 'Open a config first.',
        needsToken: false,
      };
      if (example === undefined) this.page.focus('#query-expression');
      return;
    }
    query.outcome = null;
    const count = testLocally(open.draft, query.expression).results.length;
    this.page.announce(
      `${count} ${count === 1 ? 'link matches' : 'links match'} ${expression}.`,
    );
  }

  /** The search field changed. */
  searchInput(text: string): void {
    const search = this.page.state.search;
    search.text = text;
    if (search.outcome?.kind === 'problem') search.outcome = null;
  }

  /** Chose what to search by. */
  searchMode(mode: SearchMode): void {
    const search = this.page.state.search;
    search.mode = mode;
    if (search.outcome?.kind === 'problem') search.outcome = null;
  }

  /** Searches all configs on the server. */
  async runSearch(): Promise<void> {
    const search = this.page.state.search;
    const session = this.page.session();
    search.submitted = true;
    const text = search.text.trim();
    if (
      text === '' ||
      session === null ||
      (search.mode === 'regex' && checkRegExp(text) !== null)
    ) {
      this.page.focus('#search-text');
      return;
    }
    const run = ++this.searchRun;
    search.running = true;
    search.outcome = null;
    try {
      const output = await runSearch(
        { mode: search.mode, text },
        session.caller,
      );
      if (run !== this.searchRun) return;
      search.outcome = { kind: 'results', output };
    } catch (error) {
      if (run !== this.searchRun) return;
      // A 400 is about what was typed (a pattern the server cannot use): its own words say what.
      const aboutInput =
        error instanceof RemoteStoreError &&
        error.kind === 'http' &&
        error.status === 400;
      search.outcome = {
        kind: 'problem',
        message: aboutInput
          ? `The server cannot search for this: ${error.message}.`
          : this.page.describe(error),
        needsToken: needsToken(error),
      };
    } finally {
      if (run === this.searchRun) search.running = false;
    }
  }
}

/**
 * What to show when a check failed: that checks need the server (it cannot be reached, or failed), that
 * the config must reach the server first (404), or nothing (the token, or what was typed, is the
 * problem: the status and the run say so).
 */
function checkUnavailable(error: unknown): ExpressionCheck {
  if (error instanceof RemoteStoreError && error.kind === 'http') {
    if (error.status === 404)
      return { kind: 'unavailable', reason: 'not-on-server' };
    if (error.status < 500 && error.status !== 408 && error.status !== 429)
      return { kind: 'none' };
  }
  return { kind: 'unavailable', reason: 'no-server' };
}

function needsToken(error: unknown): boolean {
  return (
    error instanceof RemoteStoreError &&
    error.kind === 'http' &&
    (error.status === 401 || error.status === 403)
  );
}
