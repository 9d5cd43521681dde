/**
 * The two tools that need the server: running an expression against the open config and searching
 * every config. Problems with what the person typed are shown beside the field, never in the status.
 */
import { RemoteStoreError } from '@linkconfig/web-client';
import { runQuery, runSearch } from './api.js';
import type { SearchMode } from './api.js';
import { checkRegExp } from './input-checks.js';
import type { PageContext } from './page-context.js';

/** Expression and search actions. */
export class ToolActions {
  /** Counts runs, so an older answer never replaces a newer one. */
  private queryRun = 0;
  private searchRun = 0;

  constructor(private readonly page: PageContext) {}

  /** The expression field changed. */
  queryInput(expression: string): void {
    const query = this.page.state.query;
    query.expression = expression;
    if (query.outcome?.kind === 'problem') query.outcome = null;
    this.page.render();
  }

  /** Runs the expression in the field, or `example` after putting it there. */
  async runQuery(example?: string): Promise<void> {
    const { state } = this.page;
    const query = state.query;
    if (example !== undefined) query.expression = example;
    const expression = query.expression.trim();
    const session = this.page.session();
    const configName = state.open?.name;
    const problem =
      expression === ''
        ? 'Enter an expression, such as .car | .coffee.'
        : configName === undefined
          ? 'Open a config first: the expression runs against it.'
          : null;
    if (problem !== null || session === null || configName === undefined) {
      query.outcome = {
        kind: 'problem',
        message: problem ?? 'The page is still starting.',
        needsToken: false,
      };
      if (example === undefined) this.page.focus('#query-expression');
      this.page.render();
      return;
    }
    const run = ++this.queryRun;
    query.running = true;
    query.outcome = null;
    this.page.render();
    try {
      const output = await runQuery({ expression, configName }, session.fetch);
      session.health.succeeded('read');
      if (run !== this.queryRun) return;
      query.outcome = {
        kind: 'results',
        expression,
        configName,
        results: output.results,
      };
    } catch (error) {
      // Only access problems concern the whole page; the rest is about this expression.
      if (needsToken(error)) session.health.failed('read', error);
      if (run !== this.queryRun) return;
      query.outcome = {
        kind: 'problem',
        message:
          error instanceof RemoteStoreError && error.status === 404
            ? `“${configName}” is not on the server yet. Save it, wait until it has been sent, then run the expression.`
            : this.page.describe(error),
        needsToken: needsToken(error),
      };
    } finally {
      if (run === this.queryRun) query.running = false;
      this.page.render();
    }
  }

  /** The search field changed. */
  searchInput(text: string): void {
    const search = this.page.state.search;
    search.text = text;
    if (search.outcome?.kind === 'problem') search.outcome = null;
    this.page.render();
  }

  /** Chose what to search by. */
  searchMode(mode: SearchMode): void {
    const search = this.page.state.search;
    search.mode = mode;
    if (search.outcome?.kind === 'problem') search.outcome = null;
    this.page.render();
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
      this.page.render();
      return;
    }
    const run = ++this.searchRun;
    search.running = true;
    search.outcome = null;
    this.page.render();
    try {
      const output = await runSearch(
        { mode: search.mode, text },
        session.fetch,
      );
      session.health.succeeded('read');
      if (run !== this.searchRun) return;
      search.outcome = { kind: 'results', output };
    } catch (error) {
      if (needsToken(error)) session.health.failed('read', error);
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
      this.page.render();
    }
  }
}

function needsToken(error: unknown): boolean {
  return (
    error instanceof RemoteStoreError &&
    error.kind === 'http' &&
    (error.status === 401 || error.status === 403)
  );
}
