/**
 * The status in the header: whether the server can be used (and if not, why and what to do), how many
 * changes wait to be sent, whether live updates are connected, how many conflicts wait for a choice, a
 * current server problem, and the changes the server refused for good.
 * Everything here describes the present; a problem disappears when it is over.
 */
import { html, nothing } from 'lit-html';
import type { TemplateResult } from 'lit-html';
import { repeat } from 'lit-html/directives/repeat.js';
import type { Actions } from './actions.js';
import { describeFailure } from './problems.js';
import { ACCESS } from './server-health.js';
import type { AppState } from './state.js';
import { srOnly, tokenButton } from './view-parts.js';

type Tone = 'ok' | 'warn' | 'bad';

interface Connection {
  text: string;
  tone: Tone;
  reachable: 'yes' | 'no' | 'unknown';
  /** Offer the token settings. */
  token: boolean;
}

/** Whether and how the server can be used now, most pressing reason first. */
export function connection(state: AppState): Connection {
  const { access } = state;
  const anyAccess = (value: string) =>
    access.read === value || access.write === value;
  if (!state.online)
    return {
      text: 'This browser is offline. Keep working: changes stay in this browser and are sent when it is back online.',
      tone: 'bad',
      reachable: 'no',
      token: false,
    };
  if (anyAccess(ACCESS.needsToken))
    return {
      text: 'The server needs a token.',
      tone: 'bad',
      reachable: 'yes',
      token: true,
    };
  if (anyAccess(ACCESS.tokenRefused))
    return {
      text: 'The server did not accept the token.',
      tone: 'bad',
      reachable: 'yes',
      token: true,
    };
  if (access.write === ACCESS.readOnly)
    return {
      text: 'The token may only read: saving to the server needs the write token.',
      tone: 'bad',
      reachable: 'yes',
      token: true,
    };
  if (state.reachable === false)
    return {
      text: 'The server cannot be reached. Keep working: changes are sent when it is back.',
      tone: 'bad',
      reachable: 'no',
      token: false,
    };
  if (state.hybrid.paused)
    return {
      text: 'The server refused the credentials, so sending changes is paused.',
      tone: 'bad',
      reachable: 'yes',
      token: true,
    };
  if (state.reachable === true)
    return {
      text: 'Connected to the server.',
      tone: 'ok',
      reachable: 'yes',
      token: false,
    };
  return {
    text: 'Checking the server…',
    tone: 'warn',
    reachable: 'unknown',
    token: false,
  };
}

/** What the live-update state means, in plain words. */
export function liveText(live: AppState['hybrid']['live']): string {
  switch (live) {
    case 'connected':
      return 'Live updates connected: changes made elsewhere show at once.';
    case 'connecting':
      return 'Live updates connecting…';
    case 'disconnected':
      return 'Live updates reconnecting…';
    case 'off':
      return 'Live updates off: the page checks for changes every few seconds.';
  }
}

/** The header's status region. */
export function statusView(state: AppState, actions: Actions): TemplateResult {
  const link = connection(state);
  const pending = state.hybrid.pending;
  const conflicts = state.hybrid.conflicts;
  const failure =
    (pending > 0 ? state.failures.write : null) ?? state.failures.read;
  return html`<section
    class="status"
    aria-label="Connection status"
    data-testid="status"
    role="status"
  >
    <p class="status-line">
      <span
        class="status-item"
        data-testid="status-server"
        data-state=${link.tone}
        data-reachable=${link.reachable}
        >${link.text}</span
      >
      ${link.token ? tokenButton(() => actions.openSettings()) : nothing}
      <span
        class="status-item"
        data-testid="status-pending"
        data-pending=${pending}
        data-state=${pending > 0 ? 'warn' : 'ok'}
        >${
          pending === 0
            ? 'All changes are on the server.'
            : `${pending} ${pending === 1 ? 'change waits' : 'changes wait'} to be sent to the server.`
        }</span
      >
      <span
        class="status-item"
        data-testid="status-live"
        data-live=${state.hybrid.live}
        data-state=${state.hybrid.live === 'connected' ? 'ok' : 'warn'}
        >${liveText(state.hybrid.live)}</span
      >
      ${
        conflicts > 0
          ? html`<span
              class="status-item"
              data-testid="status-conflicts"
              data-conflicts=${conflicts}
              data-state="bad"
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
