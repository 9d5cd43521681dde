/**
 * The page's dialogs (native `<dialog>`, so focus moves in, stays in and comes back, and Escape
 * closes): the settings with the server token, and the yes/no question asked before replacing or
 * discarding something.
 */
import { html, nothing } from 'lit-html';
import type { TemplateResult } from 'lit-html';
import type { Actions } from './actions.js';
import type { AppState } from './state.js';

/** The settings dialog: the token kept in this browser. */
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
      <h2 id="settings-title">Settings</h2>
      <div class="field">
        <label for="token-input">Server token</label>
        <input
          id="token-input"
          name="token"
          type="password"
          autocomplete="off"
          spellcheck="false"
          aria-describedby="token-hint"
        />
        <p class="hint" id="token-hint">
          Some servers ask for a token before they show or change configs. It is
          kept in this browser only and sent with every request to this server.
          ${
            state.tokenSet
              ? 'A token is set; enter a new one to replace it.'
              : 'No token is set.'
          }
        </p>
      </div>
      <div class="actions">
        <button type="submit" value="save" class="button primary">
          Save token
        </button>
        ${
          state.tokenSet
            ? html`<button type="submit" value="forget" class="button ghost">
                Forget the token
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
