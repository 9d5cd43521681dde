/**
 * The page's dialogs (native `<dialog>`, so focus moves in, stays in and comes back, and Escape
 * closes): signing in with a key (or server token), and the yes/no question asked before replacing or
 * discarding something.
 */
import { html, nothing } from 'lit-html';
import type { TemplateResult } from 'lit-html';
import type { Actions } from './actions.js';
import { grantSummary } from '../model/key-access.js';
import type { AppState } from '../state/state.js';

/** The sign-in dialog: the key (or server token) kept in this browser, and what it may do. */
export function settingsDialog(
  state: AppState,
  actions: Actions,
): TemplateResult {
  return html`<dialog
    id="settings-dialog"
    class="dialog"
    aria-labelledby="settings-title"
    data-testid="settings-dialog"
  >
    <form
      method="dialog"
      @submit=${(event: SubmitEvent) => {
        const form = event.target as HTMLFormElement;
        const submitter = event.submitter as HTMLButtonElement | null;
        const input = form.elements.namedItem('token') as HTMLInputElement;
        if (submitter?.value === 'save') actions.saveToken(input.value);
        else if (submitter?.value === 'forget') {
          input.value = '';
          actions.saveToken('');
        }
      }}
    >
      <h2 id="settings-title">Sign in with a key</h2>
      <p data-testid="settings-access">
        ${
          state.grant === null
            ? state.tokenSet
              ? 'A key is set; the server has not said yet what it may do.'
              : 'No key is set.'
            : grantSummary(state.grant)
        }
      </p>
      <div class="field">
        <label for="token-input">Access key or server token</label>
        <input
          id="token-input"
          name="token"
          type="password"
          autocomplete="off"
          spellcheck="false"
          aria-describedby="token-hint"
        />
        <p class="hint" id="token-hint">
          A key (it starts with <code>lck_</code>) decides which configs you may
          see and change. It is kept in this browser only and sent with every
          request to this server.
          ${state.tokenSet ? 'Enter another one to replace it.' : ''}
        </p>
      </div>
      <div class="actions">
        <button type="submit" value="save" class="button primary">
          Sign in
        </button>
        ${
          state.tokenSet
            ? html`<button type="submit" value="forget" class="button ghost">
                Sign out
              </button>`
            : nothing
        }
        <button type="submit" value="cancel" class="button ghost">
          Cancel
        </button>
      </div>
    </form>
  </dialog>`;
}

/** The question dialog; its answer goes to `actions.answer`. */
export function questionDialog(
  state: AppState,
  actions: Actions,
): TemplateResult {
  const question = state.question;
  return html`<dialog
    id="question-dialog"
    class="dialog"
    aria-labelledby="question-title"
    aria-describedby="question-body"
    data-testid="question-dialog"
    @close=${(event: Event) =>
      actions.answer((event.target as HTMLDialogElement).returnValue === 'yes')}
  >
    ${
      question === null
        ? nothing
        : html`<form method="dialog">
            <h2 id="question-title">${question.title}</h2>
            <p id="question-body">${question.body}</p>
            <div class="actions">
              <button
                type="submit"
                value="yes"
                class="button ${question.danger ? 'danger-solid' : 'primary'}"
                ?autofocus=${!question.danger}
              >
                ${question.confirm}
              </button>
              <button
                type="submit"
                value="no"
                class="button ghost"
                ?autofocus=${question.danger}
              >
                ${question.cancel}
              </button>
            </div>
          </form>`
    }
  </dialog>`;
}
