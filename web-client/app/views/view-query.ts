/**
 * The expression tester, beside the links: the field, what the engine says about the expression (run
 * in this browser on the draft, so offline too and with unsaved edits), "did you mean" hints with a
 * fix to apply, the server's own diagnostics when it can be asked, and the matching links as a list
 * and as the link menu a page would show.
 */
import type { Diagnostic } from '@linkconfig/shared';
import { html, nothing } from 'lit-html';
import type { TemplateResult } from 'lit-html';
import { live } from 'lit-html/directives/live.js';
import type { Actions } from './actions.js';
import { markSpan } from '../model/expression-check.js';
import { EXPRESSION_HELP } from './expression-help.js';
import { hintsFor, testLocally } from '../model/local-query.js';
import type { LocalRun } from '../model/local-query.js';
import type { AppState, OpenConfig } from '../state/state.js';
import { resultsView } from './view-query-results.js';

/** How each severity reads before its message. */
const SEVERITY: Record<Diagnostic['severity'], string> = {
  error: 'Error',
  warning: 'Warning',
  info: 'Note',
};

/** A diagnostic, and whether only the server found it. */
interface Shown {
  diagnostic: Diagnostic;
  server: boolean;
}

/** The tester of the open config. */
export function queryView(
  open: OpenConfig,
  state: AppState,
  actions: Actions,
): TemplateResult {
  const { query } = state;
  const problem = query.outcome;
  const typed = query.expression.trim() !== '';
  const run = typed ? testLocally(open.draft, query.expression) : null;
  const shown = run === null ? [] : diagnosticsOf(run, state);
  const wrong = shown.some((d) => d.diagnostic.severity === 'error');
  return html`<section
    class="tester"
    aria-labelledby="query-heading"
    data-testid="tester"
  >
    <h3 id="query-heading" tabindex="-1">Test an expression</h3>
    <p class="hint" data-testid="tester-scope">
      Runs in this browser on “${open.name}” as you see it
      here${open.dirty ? ', unsaved edits included' : ''}.
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
      >
        ${run === null ? nothing : diagnosticsView(shown, run, actions)}
        ${serverNote(state, open)}
      </div>
      ${
        problem
          ? html`<p
              class="problem"
              id="query-problem"
              data-testid="query-problem"
            >
              ${problem.message}
            </p>`
          : nothing
      }
    </form>
    ${helpView(open, actions)}
    ${run === null ? nothing : resultsView(run, open)}
  </section>`;
}

/**
 * The engine's diagnostics, then those only the server found (the same finding twice is shown once).
 * The server's answer counts only for what the field holds now.
 */
function diagnosticsOf(run: LocalRun, state: AppState): Shown[] {
  const shown: Shown[] = run.diagnostics.map((diagnostic) => ({
    diagnostic,
    server: false,
  }));
  const check = state.query.check;
  if (check.kind === 'found' && check.expression === run.expression) {
    const key = (d: Diagnostic) => `${d.code} ${d.start} ${d.end}`;
    const known = new Set(run.diagnostics.map(key));
    for (const diagnostic of check.diagnostics)
      if (!known.has(key(diagnostic))) shown.push({ diagnostic, server: true });
  }
  return shown;
}

/** Where the server's check stands, when it cannot add to what the engine here found. */
function serverNote(
  state: AppState,
  open: OpenConfig,
): TemplateResult | typeof nothing {
  const check = state.query.check;
  if (check.kind !== 'unavailable') return nothing;
  return html`<p class="hint" data-testid="check-unavailable">
    ${
      check.reason === 'not-on-server'
        ? `Checked in this browser; the server checks too once “${open.name}” is on it.`
        : 'Checked in this browser; the server checks too when it can be reached.'
    }
  </p>`;
}

function diagnosticsView(
  shown: Shown[],
  run: LocalRun,
  actions: Actions,
): TemplateResult | typeof nothing {
  if (shown.length === 0) return nothing;
  return html`<ul class="diagnostic-list">
    ${shown.map(({ diagnostic, server }) => {
      const span = markSpan(run.expression, diagnostic);
      const hints = hintsFor(diagnostic, run.expression, run.prepared);
      return html`<li
        class="diagnostic"
        data-testid="diagnostic"
        data-severity=${diagnostic.severity}
        data-code=${diagnostic.code}
        data-source=${server ? 'server' : 'local'}
      >
        <span class="diagnostic-severity"
          >${SEVERITY[diagnostic.severity]}:</span
        >
        <span class="diagnostic-message"
          >${diagnostic.message}${server ? ' (the server says)' : ''}</span
        >
        <code class="diagnostic-span" aria-hidden="true"
          >${span.before}${
            span.marked === ''
              ? html`<mark class="diagnostic-caret"></mark>`
              : html`<mark>${span.marked}</mark>`
          }${span.after}</code
        >
        ${hints.map(
          (hint) =>
            html`<p class="diagnostic-hint" data-testid="did-you-mean">
              ${hint.text}
              ${
                hint.fixed === undefined
                  ? nothing
                  : html`<button
                      type="button"
                      class="button small"
                      @click=${() => actions.runQuery(hint.fixed)}
                    >
                      Use <code>${hint.written}</code>
                    </button>`
              }
            </p>`,
        )}
      </li>`;
    })}
  </ul>`;
}

function helpView(open: OpenConfig, actions: Actions): TemplateResult {
  const draft = open.draft;
  const own = [
    ...Object.keys(draft.macros ?? {}).map((name) => `@${name}`),
    ...Object.keys(draft.searchPatterns ?? {}).map((key) => `/${key}/`),
  ];
  return html`<details class="help" data-testid="expression-help">
    <summary>Expression syntax and examples</summary>
    <p class="hint">
      Examples use the demo config; press one to run it on the open config.
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
