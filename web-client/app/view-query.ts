/**
 * "Run an expression": the field (with room below it for diagnostics as you type), a short syntax
 * help with examples to try, and the matching links.
 */
import { html, nothing } from 'lit-html';
import type { Diagnostic } from '@linkconfig/shared';
import type { TemplateResult } from 'lit-html';
import { live } from 'lit-html/directives/live.js';
import { repeat } from 'lit-html/directives/repeat.js';
import type { Actions } from './actions.js';
import { markSpan } from './expression-check.js';
import { EXPRESSION_HELP } from './expression-help.js';
import type { AppState, ExpressionCheck } from './state.js';
import { safeLink, tagChips, tokenButton } from './view-parts.js';

/** The expression panel. */
export function queryView(state: AppState, actions: Actions): TemplateResult {
  const { query, open } = state;
  const outcome = query.outcome;
  const problem = outcome?.kind === 'problem' ? outcome : null;
  const check = query.check;
  // Only an error about what the field holds now marks the field invalid.
  const wrong =
    check.kind === 'found' &&
    check.expression === query.expression &&
    check.diagnostics.some((d) => d.severity === 'error');
  return html`<section class="panel tool" aria-labelledby="query-heading">
    <h2 id="query-heading">Run an expression</h2>
    <p class="hint">
      ${
        open === null
          ? 'Open a config first: expressions run against it.'
          : html`Runs against “${open.name}” as saved on the
            server${open.dirty ? ': your unsaved edits are not included.' : '.'}`
      }
    </p>
    <form
      data-testid="query-form"
      novalidate
      @submit=${(event: Event) => {
        event.preventDefault();
        actions.runQuery();
      }}
    >
      <label for="query-expression">Expression</label>
      <div class="input-row">
        <input
          id="query-expression"
          autocomplete="off"
          autocapitalize="off"
          spellcheck="false"
          placeholder="for example .car | .coffee"
          aria-describedby="expression-diagnostics${
            problem ? ' query-problem' : ''
          }"
          aria-invalid=${problem || wrong ? 'true' : 'false'}
          .value=${live(query.expression)}
          @input=${(event: Event) =>
            actions.queryInput((event.target as HTMLInputElement).value)}
        />
        <button type="submit" class="button primary">Run expression</button>
      </div>
      <div
        id="expression-diagnostics"
        class="diagnostics"
        data-testid="expression-diagnostics"
        aria-live="polite"
      >
        ${diagnosticsView(check, open?.name ?? '')}
      </div>
      ${
        problem
          ? html`<p
              class="problem"
              id="query-problem"
              data-testid="query-problem"
            >
              ${problem.message}
              ${
                problem.needsToken
                  ? tokenButton(() => actions.openSettings())
                  : nothing
              }
            </p>`
          : nothing
      }
    </form>
    ${helpView(state, actions)}
    <p class="summary" data-testid="query-summary" aria-live="polite">
      ${
        query.running
          ? 'Running…'
          : outcome?.kind === 'results'
            ? `${outcome.results.length} ${outcome.results.length === 1 ? 'link matches' : 'links match'} ${outcome.expression} in “${outcome.configName}”.`
            : ''
      }
    </p>
    ${
      outcome?.kind === 'results'
        ? html`<ol class="results" data-testid="query-results">
            ${repeat(
              outcome.results,
              (link) => link.id,
              (link) =>
                html`<li
                  class="result"
                  data-testid="query-result"
                  data-link-id=${link.id}
                >
                  <span class="result-title"
                    >${safeLink(link.url, link.label ?? link.id)}</span
                  >
                  <span class="result-url">${link.url}</span>
                  <span class="result-meta"
                    ><code class="link-id">${link.id}</code>
                    ${tagChips(link.tags)}</span
                  >
                </li>`,
            )}
          </ol>`
        : nothing
    }
  </section>`;
}

/** How each severity reads before its message. */
const SEVERITY: Record<Diagnostic['severity'], string> = {
  error: 'Error',
  warning: 'Warning',
  info: 'Note',
};

/** What the server's check found, or a quiet word that it cannot check now. */
function diagnosticsView(
  check: ExpressionCheck,
  configName: string,
): TemplateResult | typeof nothing {
  if (check.kind === 'none') return nothing;
  if (check.kind === 'unavailable')
    return html`<p class="hint" data-testid="check-unavailable">
      ${
        check.reason === 'not-on-server'
          ? `Checks run once “${configName}” is on the server.`
          : 'Checks need the server.'
      }
    </p>`;
  if (check.diagnostics.length === 0) return nothing;
  return html`<ul class="diagnostic-list">
    ${check.diagnostics.map((diagnostic) => {
      const span = markSpan(check.expression, diagnostic);
      return html`<li
        class="diagnostic"
        data-testid="diagnostic"
        data-severity=${diagnostic.severity}
        data-code=${diagnostic.code}
      >
        <span class="diagnostic-severity"
          >${SEVERITY[diagnostic.severity]}:</span
        >
        <span class="diagnostic-message">${diagnostic.message}</span>
        <code class="diagnostic-span" aria-hidden="true"
          >${span.before}${
            span.marked === ''
              ? html`<mark class="diagnostic-caret"></mark>`
              : html`<mark>${span.marked}</mark>`
          }${span.after}</code
        >
      </li>`;
    })}
  </ul>`;
}

function helpView(state: AppState, actions: Actions): TemplateResult {
  const draft = state.open?.draft;
  const own = [
    ...Object.keys(draft?.macros ?? {}).map((name) => `@${name}`),
    ...Object.keys(draft?.searchPatterns ?? {}).map((key) => `/${key}/`),
  ];
  return html`<details class="help" data-testid="expression-help">
    <summary>Expression syntax and examples</summary>
    <p class="hint">
      Examples use the demo config; press one to run it against the open config.
    </p>
    <table class="help-table">
      <thead>
        <tr>
          <th scope="col">Write</th>
          <th scope="col">To get</th>
          <th scope="col">Example</th>
        </tr>
      </thead>
      <tbody>
        ${EXPRESSION_HELP.map(
          (row) =>
            html`<tr>
              <td><code>${row.syntax}</code></td>
              <td>${row.meaning}</td>
              <td>${tryButton(row.example, actions)}</td>
            </tr>`,
        )}
      </tbody>
    </table>
    ${
      own.length > 0
        ? html`<p class="hint">In this config:</p>
            <p class="try-list">
              ${own.map((expression) => tryButton(expression, actions))}
            </p>`
        : nothing
    }
  </details>`;
}

function tryButton(expression: string, actions: Actions): TemplateResult {
  return html`<button
    type="button"
    class="try"
    @click=${() => actions.runQuery(expression)}
  >
    <code>${expression}</code>
  </button>`;
}
