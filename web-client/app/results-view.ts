/** The query and search forms and their result lists. */
import type { QueryOutput, SearchOutput } from '@linkconfig/shared';
import { runQuery, runSearch } from './api.js';
import type { SearchMode } from './api.js';
import { byTestId, fieldValue, h } from './dom.js';
import { messageOf } from './plain-words.js';

/** What the result views need from the page. */
export interface ResultsContext {
  /** The `fetch` to call the server with. */
  fetch: typeof fetch;
  /** The open config's name, or null. */
  openName(): string | null;
  /** Reports a failure to the status line. */
  problem(message: string): void;
}

/** Wires the expression form (`POST /query`) and the search form (`GET /search`). */
export function setupResults(context: ResultsContext): void {
  const queryForm = byTestId<HTMLFormElement>('query-form');
  const querySummary = byTestId('query-summary');
  const queryResults = byTestId('query-results');
  const searchForm = byTestId<HTMLFormElement>('search-form');
  const searchSummary = byTestId('search-summary');
  const searchResults = byTestId('search-results');

  queryForm.addEventListener('submit', (event) => {
    event.preventDefault();
    const expression = fieldValue(queryForm, 'expression');
    const configName = context.openName();
    if (!expression) return;
    if (configName === null) {
      querySummary.textContent =
        'Open a config first: the expression runs against it.';
      return;
    }
    querySummary.textContent = 'Running…';
    queryResults.replaceChildren();
    runQuery({ expression, configName }, context.fetch).then(
      (output) => showQuery(output, expression, configName),
      (error: unknown) => fail(querySummary, messageOf(error)),
    );
  });

  searchForm.addEventListener('submit', (event) => {
    event.preventDefault();
    const mode = fieldValue(searchForm, 'mode') as SearchMode;
    const text = fieldValue(searchForm, 'text');
    if (!text) return;
    searchSummary.textContent = 'Searching…';
    searchResults.replaceChildren();
    runSearch({ mode, text }, context.fetch).then(
      showSearch,
      (error: unknown) => fail(searchSummary, messageOf(error)),
    );
  });

  function fail(summary: HTMLElement, message: string): void {
    summary.textContent = message;
    context.problem(message);
  }

  function showQuery(
    output: QueryOutput,
    expression: string,
    configName: string,
  ): void {
    const n = output.results.length;
    querySummary.textContent = `${n} ${n === 1 ? 'link matches' : 'links match'} ${expression} in "${configName}" (as saved on the server).`;
    queryResults.replaceChildren(
      ...output.results.map((link) =>
        h('li', { 'data-testid': 'query-result', 'data-link-id': link.id }, [
          linkLine(link.label ?? link.id, link.url, link.tags),
        ]),
      ),
    );
  }

  function showSearch(output: SearchOutput): void {
    const n = output.results.length;
    searchSummary.textContent = `${n} ${n === 1 ? 'result' : 'results'} (searched ${output.configsSearched} configs, ${output.linksScanned} links).`;
    searchResults.replaceChildren(
      ...output.results.map((item) =>
        h(
          'li',
          {
            'data-testid': 'search-result',
            'data-config': item.configName,
            'data-link-id': item.id,
          },
          [
            `${item.configName}: `,
            linkLine(item.link.label ?? item.id, item.link.url, item.link.tags),
          ],
        ),
      ),
    );
  }
}

function linkLine(label: string, url: string, tags?: string[]): HTMLElement {
  const parts: (Node | string)[] = [h('strong', { text: label }), ` — ${url}`];
  if (tags && tags.length > 0) parts.push(` [${tags.join(', ')}]`);
  return h('span', {}, parts);
}
