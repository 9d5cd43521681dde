/**
 * The Keys panel of an admin key (a native `<dialog>`: focus moves in, stays in, comes back; Escape
 * closes): create a key (label, scope, name patterns, optional expiry), its secret shown this once with
 * a Copy button and a warning; the list of keys (never a secret), each with Revoke (asked first).
 */
import { KEY_SCOPES } from '@linkconfig/shared';
import type { AccessKey, CreateKeyOutput, KeyScope } from '@linkconfig/shared';
import { html, nothing } from 'lit-html';
import type { TemplateResult } from 'lit-html';
import { repeat } from 'lit-html/directives/repeat.js';
import { live } from 'lit-html/directives/live.js';
import type { Actions } from './actions.js';
import type { AppState } from '../state/state.js';
import { srOnly } from './view-parts.js';

const SCOPE_NAMES: Record<KeyScope, string> = {
  read: 'Read',
  write: 'Read and write (drafts)',
  publish: 'Publish (read, write, publish)',
  admin: 'Admin (read, write, publish, manage keys)',
};

const day = (iso: string | null, none: string): string =>
  iso === null ? none : iso.slice(0, 10);

function createdView(
  created: CreateKeyOutput,
  state: AppState,
  actions: Actions,
): TemplateResult {
  return html`<section
    class="notice key-created"
    aria-labelledby="key-created-heading"
    data-testid="key-created"
  >
    <h3 id="key-created-heading">The secret of “${created.label}”</h3>
    <p id="key-secret-warning" class="key-warning">
      Copy it now: it will not be shown again. The server keeps only a hash of
      it.
    </p>
    <div class="field">
      <label for="key-secret">Secret</label>
      <input
        id="key-secret"
        readonly
        spellcheck="false"
        autocomplete="off"
        aria-describedby="key-secret-warning"
        data-testid="key-secret"
        .value=${created.secret}
        @focus=${(event: FocusEvent) =>
          (event.target as HTMLInputElement).select()}
      />
    </div>
    <div class="actions">
      <button
        type="button"
        class="button"
        data-testid="copy-secret"
        @click=${() => actions.keys.copySecret()}
      >
        Copy the secret
      </button>
    </div>
    ${state.keys.note === null ? nothing : html`<p class="hint">${state.keys.note}</p>`}
  </section>`;
}

function keyItem(key: AccessKey, actions: Actions): TemplateResult {
  const revoked = key.revokedAt !== null;
  return html`<li class="key-item" data-testid="key-item" data-key-id=${key.id}>
    <p>
      <strong>${key.label}</strong> — ${SCOPE_NAMES[key.scope]} —
      <code>${key.configs.join(', ')}</code>
    </p>
    <p class="hint">
      ${
        revoked
          ? `Revoked ${day(key.revokedAt, '')}.`
          : `Expires: ${day(key.expiresAt, 'never')}.`
      }
      Created ${day(key.createdAt, '')}. Last used:
      ${day(key.lastUsedAt, 'never')}.
    </p>
    ${
      revoked
        ? nothing
        : html`<button
            type="button"
            class="button small ghost danger"
            id=${`revoke-${key.id}`}
            data-testid="revoke-key"
            @click=${() => actions.keys.revoke(key.id)}
          >
            Revoke${srOnly(` the key “${key.label}”`)}
          </button>`
    }
  </li>`;
}

/** The dialog; opened by `actions.keys.openDialog`. */
export function keysDialog(state: AppState, actions: Actions): TemplateResult {
  return html`<dialog
    id="keys-dialog"
    class="dialog keys-dialog"
    aria-labelledby="keys-title"
    data-testid="keys-dialog"
    @close=${() => actions.keys.closed()}
  >
    <h2 id="keys-title">Access keys</h2>
    ${state.keys.open ? panelBody(state, actions) : nothing}
  </dialog>`;
}

function panelBody(state: AppState, actions: Actions): TemplateResult {
  const keys = state.keys;
  const form = keys.form;
  const text = (field: 'label' | 'configs' | 'expires') => (event: Event) =>
    actions.keys.input(field, (event.target as HTMLInputElement).value);
  return html` <form
      class="key-form"
      aria-labelledby="key-form-heading"
      @submit=${(event: SubmitEvent) => {
        event.preventDefault();
        void actions.keys.create();
      }}
    >
      <h3 id="key-form-heading">Create a key</h3>
      <div class="field">
        <label for="key-label">Label</label>
        <input
          id="key-label"
          autocomplete="off"
          aria-describedby="key-label-hint"
          .value=${live(form.label)}
          @input=${text('label')}
        />
        <p class="hint" id="key-label-hint">Who or what holds it.</p>
      </div>
      <div class="field">
        <label for="key-scope">Scope</label>
        <select
          id="key-scope"
          @change=${(event: Event) =>
            actions.keys.setScope(
              (event.target as HTMLSelectElement).value as KeyScope,
            )}
        >
          ${KEY_SCOPES.map(
            (scope) =>
              html`<option value=${scope} ?selected=${form.scope === scope}>
                ${SCOPE_NAMES[scope]}
              </option>`,
          )}
        </select>
      </div>
      <div class="field">
        <label for="key-configs">Config names</label>
        <input
          id="key-configs"
          autocomplete="off"
          spellcheck="false"
          aria-describedby="key-configs-hint"
          .value=${live(form.configs)}
          @input=${text('configs')}
        />
        <p class="hint" id="key-configs-hint">
          Separated by commas; <code>*</code> stands for any run of characters:
          <code>site-a/*</code>, <code>docs</code>, <code>*</code>.
        </p>
      </div>
      <div class="field">
        <label for="key-expires">Expires (optional)</label>
        <input
          id="key-expires"
          type="date"
          aria-describedby="key-expires-hint"
          .value=${live(form.expires)}
          @input=${text('expires')}
        />
        <p class="hint" id="key-expires-hint">
          At the end of that day (UTC). Empty: never.
        </p>
      </div>
      ${keys.problem === null ? nothing : html`<p class="problem" role="alert" data-testid="keys-problem">${keys.problem}</p>`}
      <div class="actions">
        <button
          type="submit"
          class="button primary"
          data-testid="create-key"
          ?disabled=${keys.busy}
        >
          Create key
        </button>
      </div>
    </form>
    ${keys.created === null ? nothing : createdView(keys.created, state, actions)}
    <section aria-labelledby="keys-list-heading">
      <h3 id="keys-list-heading" tabindex="-1">Keys</h3>
      ${
        keys.list === null
          ? html`<p class="hint">Listing the keys…</p>`
          : keys.list.length === 0
            ? html`<p class="hint">No keys yet.</p>`
            : html`<ul class="key-list" data-testid="key-list">
                ${repeat(
                  keys.list,
                  (key) => key.id,
                  (key) => keyItem(key, actions),
                )}
              </ul>`
      }
    </section>
    <form method="dialog" class="actions">
      <button type="submit" value="close" class="button ghost">Close</button>
    </form>`;
}
