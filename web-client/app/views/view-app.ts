/**
 * The whole page: header with status, the configs panel, conflicts waiting for a choice, the open
 * config (with its expression tester), and the search over every config.
 */
import { html, nothing } from 'lit-html';
import type { TemplateResult } from 'lit-html';
import type { Actions } from './actions.js';
import { grantSummary } from '../model/key-access.js';
import type { AppState } from '../state/state.js';
import { configListView } from './view-config-list.js';
import { conflictsView } from './view-conflicts.js';
import { questionDialog, settingsDialog } from './view-dialogs.js';
import { shortcutsDialog } from './view-link-bulk.js';
import { editorView } from './view-editor.js';
import { importDialog } from './view-import.js';
import { keysDialog } from './view-keys.js';
import { searchView } from './view-search.js';
import { statusView } from './view-status.js';

/** The page, rendered into `#app`. */
export function appView(state: AppState, actions: Actions): TemplateResult {
  return html`<a class="skip-link" href="#editor">Skip to the open config</a>
    <header class="app-header">
      <div class="brand">
        <h1>Link configs</h1>
        <div class="brand-actions">
          <button
            type="button"
            class="button ghost"
            aria-haspopup="dialog"
            data-testid="open-settings"
            @click=${() => actions.openSettings()}
          >
            ${state.tokenSet ? 'Key' : 'Sign in'}
          </button>
          ${
            state.grant?.scope === 'admin'
              ? html`<button
                  type="button"
                  class="button ghost"
                  aria-haspopup="dialog"
                  data-testid="open-keys"
                  @click=${() => actions.keys.openDialog()}
                >
                  Keys
                </button>`
              : nothing
          }
          <button
            type="button"
            class="button ghost"
            aria-haspopup="dialog"
            data-testid="open-import"
            ?disabled=${!state.ready}
            @click=${() => actions.transfer.openDialog()}
          >
            Import and export
          </button>
        </div>
        ${
          state.grant === null
            ? nothing
            : html`<p class="key-access" data-testid="key-access">
                ${grantSummary(state.grant)}
              </p>`
        }
      </div>
      ${
        state.fatal === null
          ? statusView(state, actions)
          : html`<p class="status-problem" role="alert">${state.fatal}</p>`
      }
    </header>
    ${
      state.fatal === null
        ? html`<div class="layout ${state.open === null ? '' : 'config-open'}">
            ${configListView(state, actions)}
            <main class="main">
              ${conflictsView(state, actions)} ${editorView(state, actions)}
              <div class="tools">${searchView(state, actions)}</div>
            </main>
          </div>`
        : nothing
    }
    ${settingsDialog(state, actions)} ${questionDialog(state, actions)}
    ${shortcutsDialog(actions)} ${importDialog(state, actions)}
    ${keysDialog(state, actions)}
    <div class="visually-hidden" aria-live="polite" data-testid="announcer">
      ${state.announcement}
    </div>`;
}
