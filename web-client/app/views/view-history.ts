/**
 * The History panel of the open config (under its editor bar): the revisions, newest first, each with
 * who made it, when, and how many links it added, removed and changed; one revision shown read-only
 * with what differs from the current version (view-revision.ts); and the sidebar's "Recently deleted"
 * list with Undelete.
 */
import { html, nothing } from 'lit-html';
import type { TemplateResult } from 'lit-html';
import { repeat } from 'lit-html/directives/repeat.js';
import type { HistoryEntry } from '@linkconfig/shared';
import type { Actions } from './actions.js';
import type { AppState } from '../state/state.js';
import { isReadOnly } from '../state/status-model.js';
import { srOnly } from './view-parts.js';
import { revisionView, whenText, whoText } from './view-revision.js';

const OP_WORDS: Record<HistoryEntry['op'], string> = {
  put: 'Saved',
  patch: 'Edited',
  delete: 'Deleted',
  restore: 'Restored',
};

/** The panel, when it is open for the open config. */
export function historyView(
  state: AppState,
  actions: Actions,
): TemplateResult | typeof nothing {
  const history = state.history;
  const name = history.name;
  if (name === null || state.open?.name !== name) return nothing;
  const readOnly = isReadOnly(state);
  return html`<section
    class="history-panel"
    aria-labelledby="history-heading"
    data-testid="history-panel"
    aria-busy=${history.loading ? 'true' : 'false'}
  >
    <div class="history-head">
      <h3 id="history-heading" tabindex="-1">History of “${name}”</h3>
      <button
        type="button"
        class="button small ghost"
        data-testid="close-history"
        @click=${() => actions.history.closePanel()}
      >
        Close history
      </button>
    </div>
    <p class="hint">
      Every save that reaches the server is kept. Restoring adds a new revision,
      so nothing is lost.
    </p>
    ${
      history.problem === null
        ? nothing
        : html`<p class="notice" data-testid="history-problem">
            ${history.problem}
          </p>`
    }
    ${
      history.loading && history.revisions.length === 0
        ? html`<p class="hint">Loading the history…</p>`
        : nothing
    }
    <ol class="revision-list" data-testid="revision-list">
      ${repeat(
        history.revisions,
        (entry) => entry.rev,
        (entry, index) =>
          revisionItem(entry, {
            newest: index === 0,
            shown: history.shown?.rev === entry.rev,
            actions,
          }),
      )}
    </ol>
    ${
      history.next === null
        ? nothing
        : html`<button
            type="button"
            class="button small"
            data-testid="history-more"
            ?disabled=${history.loading}
            @click=${() => actions.history.more()}
          >
            Show older revisions
          </button>`
    }
    ${
      history.shown === null
        ? nothing
        : revisionView(history.shown, {
            name,
            busy: history.busy || readOnly,
            actions,
          })
    }
  </section>`;
}

function revisionItem(
  entry: HistoryEntry,
  context: { newest: boolean; shown: boolean; actions: Actions },
): TemplateResult {
  const { added, removed, changed } = entry.summary;
  const summary =
    entry.op === 'delete'
      ? 'the config was deleted'
      : `${added} added, ${removed} removed, ${changed} changed`;
  return html`<li
    class="revision-item"
    data-testid="revision"
    data-rev=${entry.rev}
    data-op=${entry.op}
    aria-current=${context.shown ? 'true' : nothing}
  >
    <div class="revision-text">
      <strong>Revision ${entry.rev}</strong>
      ${context.newest ? html`<span class="chip">current</span>` : nothing}
      <span>${OP_WORDS[entry.op]} by ${whoText(entry.by)},</span>
      <time datetime=${entry.at}>${whenText(entry.at)}</time>
      <span class="revision-summary" data-testid="revision-summary"
        >Links: ${summary}</span
      >
    </div>
    ${
      entry.op === 'delete'
        ? nothing
        : html`<button
            type="button"
            class="button small"
            data-testid="view-revision"
            @click=${() => context.actions.history.view(entry.rev)}
          >
            View${srOnly(` revision ${entry.rev}`)}
          </button>`
    }
  </li>`;
}

/** The sidebar's list of configs deleted on the server that can be brought back. */
export function deletedView(state: AppState, actions: Actions): TemplateResult {
  const history = state.history;
  const readOnly = isReadOnly(state);
  return html`<section
    class="recently-deleted"
    aria-labelledby="deleted-heading"
    data-testid="recently-deleted"
  >
    <h3 id="deleted-heading">Recently deleted</h3>
    <button
      type="button"
      class="button small ghost"
      data-testid="show-deleted"
      ?disabled=${history.deletedLoading}
      @click=${() => actions.history.showDeleted()}
    >
      ${history.deleted === null ? 'Show recently deleted' : 'Refresh the list'}
    </button>
    ${
      history.deletedProblem === null
        ? nothing
        : html`<p class="notice" data-testid="deleted-problem">
            ${history.deletedProblem}
          </p>`
    }
    ${
      history.deleted === null
        ? nothing
        : history.deleted.length === 0
          ? html`<p class="hint" data-testid="deleted-empty">
              Nothing was deleted.
            </p>`
          : html`<ul class="deleted-list" data-testid="deleted-list">
              ${repeat(
                history.deleted,
                (name) => name,
                (name) =>
                  html`<li data-testid="deleted-item" data-config-name=${name}>
                    <span class="deleted-name">${name}</span>
                    <button
                      type="button"
                      class="button small"
                      data-testid="undelete"
                      ?disabled=${readOnly}
                      @click=${() => actions.history.undelete(name)}
                    >
                      Undelete${srOnly(` “${name}”`)}
                    </button>
                  </li>`,
              )}
            </ul>`
    }
  </section>`;
}
