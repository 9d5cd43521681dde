/**
 * The status in the header: one line (a polite live region) whose words and one colour come from the
 * status model (status-model.ts): whether the server can be used (and if not, why and what to do), how
 * many changes wait to be sent and for how long, whether live updates arrive, how many conflicts wait
 * for a choice. Under it, a current server problem and the changes the server refused for good.
 * Everything here describes the present; a problem disappears when it is over.
 */
import { html, nothing } from 'lit-html';
import type { TemplateResult } from 'lit-html';
import { repeat } from 'lit-html/directives/repeat.js';
import type { Actions } from './actions.js';
import { describeFailure } from '../model/problems.js';
import type { AppState } from '../state/state.js';
import { statusModel } from '../state/status-model.js';
import { srOnly, tokenButton } from './view-parts.js';

/** The header's status region. */
export function statusView(state: AppState, actions: Actions): TemplateResult {
  const model = statusModel(state, state.clock);
  const link = model.server;
  const { pending, live, conflicts } = model;
  const failure =
    (pending.count > 0 ? state.failures.write : null) ?? state.failures.read;
  return html`<section
    class="status"
    aria-label="Connection status"
    data-testid="status"
  >
    <p
      class="status-line"
      role="status"
      data-testid="status-line"
      data-tone=${model.tone}
    >
      <span class="status-dot" aria-hidden="true"></span>
      <span
        class="status-item"
        data-testid="status-server"
        data-state=${link.tone}
        data-reachable=${link.reachable}
        >${link.text}</span
      >
      <span
        class="status-item"
        data-testid="status-pending"
        data-pending=${pending.count}
        >${pending.text}</span
      >${
        pending.age === null
          ? nothing
          : html`<span
              class="status-age"
              data-testid="status-age"
              aria-hidden="true"
              >(${pending.age})</span
            >`
      }
      <span
        class="status-item"
        data-testid="status-live"
        data-live=${live.state}
        >${live.text}</span
      >
      ${
        conflicts > 0
          ? html`<span
              class="status-item"
              data-testid="status-conflicts"
              data-conflicts=${conflicts}
              ><span
                >${
                  conflicts === 1
                    ? '1 config was changed here and on the server:'
                    : `${conflicts} configs were changed here and on the server:`
                } <a href="#conflicts">choose which version to keep</a>.</span
              ></span
            >`
          : nothing
      }
      ${link.token ? tokenButton(() => actions.openSettings()) : nothing}
    </p>
    ${
      failure
        ? html`<p class="status-problem" data-testid="status-problem">
            ${describeFailure(failure, { tokenSet: state.tokenSet })}
            ${failure.retryable ? 'The page keeps trying.' : nothing}
          </p>`
        : nothing
    }
    ${
      state.pageProblem
        ? html`<p class="status-problem" data-testid="page-problem">
            ${state.pageProblem}
          </p>`
        : nothing
    }
    <div data-testid="dead-letters">
      ${repeat(
        state.deadLetters,
        (letter) => letter.name,
        (letter) =>
          html`<div class="dead-letter" data-testid="dead-letter">
            <p>
              The server refused the change to “${letter.name}” (error
              ${letter.status}), so it stays only in this browser.
            </p>
            <details>
              <summary>What the server said</summary>
              <p class="detail">${letter.error}</p>
            </details>
            <div class="actions">
              <button
                type="button"
                class="button small"
                @click=${() => actions.retryDeadLetter(letter.name)}
              >
                Try again${srOnly(` to send “${letter.name}”`)}
              </button>
              <button
                type="button"
                class="button small ghost"
                @click=${() => actions.discardDeadLetter(letter.name)}
              >
                Discard${srOnly(` the change to “${letter.name}”`)}
              </button>
            </div>
          </div>`,
      )}
    </div>
  </section>`;
}
