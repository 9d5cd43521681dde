/** "Search all configs": by text, tag or regular expression; each result opens its config at the link. */
import { html, nothing } from 'lit-html';
import type { TemplateResult } from 'lit-html';
import { live } from 'lit-html/directives/live.js';
import { repeat } from 'lit-html/directives/repeat.js';
import type { Actions } from './actions.js';
import { SEARCH_MODES } from '../session/api.js';
import type { SearchMode } from '../session/api.js';
import { checkRegExp } from '../model/input-checks.js';
import type { AppState } from '../state/state.js';
import { safeLink, srOnly, tagChips, tokenButton } from './view-parts.js';

/** The problem to show beside the search field, if any. */
function searchProblem(state: AppState): string | null {
  const { search } = state;
  if (search.text.trim() === '')
    return search.submitted ? 'Enter what to search for.' : null;
  if (search.mode === 'regex') {
    const problem = checkRegExp(search.text);
    if (problem !== null) return problem;
  }
  return search.outcome?.kind === 'problem' ? search.outcome.message : null;
}

/** The search panel. */
export function searchView(state: AppState, actions: Actions): TemplateResult {
  const { search } = state;
  const problem = searchProblem(state);
  // Results of an earlier search never stand under a new problem.
  const outcome =
    problem === null || search.outcome?.kind === 'problem'
      ? search.outcome
      : null;
  return html`<section class="panel tool" aria-labelledby="search-heading">
    <h2 id="search-heading">Search all configs</h2>
    <form
      data-testid="search-form"
      aria-labelledby="search-heading"
      novalidate
      @submit=${(event: Event) => {
        event.preventDefault();
        actions.runSearch();
      }}
    >
      <div class="search-grid">
        <div class="field">
          <label for="search-mode">Search by</label>
          <select
            id="search-mode"
            @change=${(event: Event) =>
              actions.searchMode(
                (event.target as HTMLSelectElement).value as SearchMode,
              )}
          >
            ${Object.entries(SEARCH_MODES).map(
              ([mode, text]) =>
                html`<option value=${mode} ?selected=${mode === search.mode}>
                  ${text}
                </option>`,
            )}
          </select>
        </div>
        <div class="field">
          <label for="search-text">Search for</label>
          <div class="input-row">
            <input
              id="search-text"
              autocomplete="off"
              autocapitalize="off"
              spellcheck="false"
              aria-invalid=${problem ? 'true' : 'false'}
              aria-describedby=${problem ? 'search-problem' : nothing}
              .value=${live(search.text)}
              @input=${(event: Event) =>
                actions.searchInput((event.target as HTMLInputElement).value)}
            />
            <button type="submit" class="button primary">Search</button>
          </div>
        </div>
      </div>
      ${
        problem
          ? html`<p
              class="problem"
              id="search-problem"
              data-testid="search-problem"
            >
              ${problem}
              ${
                outcome?.kind === 'problem' && outcome.needsToken
                  ? tokenButton(() => actions.openSettings())
                  : nothing
              }
            </p>`
          : nothing
      }
    </form>
    <p class="summary" data-testid="search-summary" aria-live="polite">
      ${
        search.running
          ? 'Searching…'
          : outcome?.kind === 'results'
            ? `${outcome.output.results.length} ${outcome.output.results.length === 1 ? 'result' : 'results'} in ${outcome.output.configsSearched} ${outcome.output.configsSearched === 1 ? 'config' : 'configs'} searched.`
            : ''
      }
    </p>
    ${
      outcome?.kind === 'results'
        ? html`<ol class="results" data-testid="search-results">
            ${repeat(
              outcome.output.results,
              (item) => `${item.configName}\n${item.id}`,
              (item) =>
                html`<li
                  class="result"
                  data-testid="search-result"
                  data-config=${item.configName}
                  data-link-id=${item.id}
                >
                  <span class="result-title"
                    >${safeLink(item.link.url, item.link.label ?? item.id)}</span
                  >
                  <span class="result-url">${item.link.url}</span>
                  <span class="result-meta">
                    <button
                      type="button"
                      class="button small ghost"
                      @click=${() => actions.openResult(item.configName, item.id)}
                    >
                      Open in ${item.configName}${srOnly(` at link ${item.id}`)}
                    </button>
                    <code class="link-id">${item.id}</code>
                    ${tagChips(item.link.tags)}
                  </span>
                </li>`,
            )}
          </ol>`
        : nothing
    }
  </section>`;
}
