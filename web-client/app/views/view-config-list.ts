/**
 * The side panel: the configs, each marked with where it is kept when that matters (only on the
 * server, only in this browser, changes not sent yet), and the form that creates a config.
 */
import { html, nothing } from 'lit-html';
import type { TemplateResult } from 'lit-html';
import { repeat } from 'lit-html/directives/repeat.js';
import type { Actions } from './actions.js';
import { placeMarker } from '../state/config-places.js';
import { checkConfigName } from '../model/input-checks.js';
import { ACCESS } from '@linkconfig/web-client';
import { createRefusal } from '../state/status-model.js';
import type { AppState, ConfigListItem } from '../state/state.js';
import { deletedView } from './view-history.js';
import { field, tokenButton, visibleProblem } from './view-parts.js';

/** The configs panel. */
export function configListView(
  state: AppState,
  actions: Actions,
): TemplateResult {
  const reachable = state.online && state.reachable !== false;
  const openName = state.open?.name ?? null;
  const needsToken =
    state.access.read === ACCESS.needsToken ||
    state.access.read === ACCESS.tokenRefused;
  return html`<nav class="panel sidebar" aria-labelledby="configs-heading">
    <h2 id="configs-heading">Configs</h2>
    ${
      needsToken
        ? html`<div class="notice" data-testid="list-notice">
            <p>
              ${
                state.access.read === ACCESS.needsToken
                  ? 'The server needs a token before it shows its configs.'
                  : 'The server did not accept the token, so its configs are not listed.'
              }
            </p>
            ${tokenButton(() => actions.openSettings())}
          </div>`
        : nothing
    }
    ${
      !reachable && state.configs.some((item) => !item.local)
        ? html`<p class="hint" data-testid="list-notice">
            Offline: only configs kept in this browser can be opened.
          </p>`
        : nothing
    }
    <ul class="config-list" data-testid="config-list">
      ${
        state.configs.length === 0
          ? html`<li class="empty">No configs yet: create one below.</li>`
          : repeat(
              state.configs,
              (item) => item.name,
              (item) => configItem(item, { reachable, openName, actions }),
            )
      }
    </ul>
    <p class="hint" role="status" data-testid="list-message">
      ${state.listNotice ?? ''}
    </p>
    ${createForm(state, actions)} ${deletedView(state, actions)}
  </nav>`;
}

function configItem(
  item: ConfigListItem,
  context: { reachable: boolean; openName: string | null; actions: Actions },
): TemplateResult {
  const marker = placeMarker(item, context.reachable);
  const markerId = `config-marker-${encodeURIComponent(item.name)}`;
  return html`<li
    data-testid="config-item"
    data-config-name=${item.name}
    data-place=${marker?.text ?? 'both'}
  >
    <button
      type="button"
      class="config-button"
      data-config-name=${item.name}
      aria-current=${item.name === context.openName ? 'true' : 'false'}
      aria-describedby=${marker ? markerId : nothing}
      @click=${() => context.actions.openConfig(item.name)}
    >
      ${item.name}
    </button>
    ${
      marker
        ? html`<span
            class="marker"
            data-tone=${marker.tone}
            id=${markerId}
            data-testid="config-marker"
            >${marker.text}</span
          >`
        : nothing
    }
  </li>`;
}

function createForm(state: AppState, actions: Actions): TemplateResult {
  const form = state.create;
  return html`<form
    class="create-form"
    data-testid="create-config-form"
    novalidate
    @submit=${(event: Event) => {
      event.preventDefault();
      actions.submit('create');
    }}
  >
    ${field({
      id: 'new-config-name',
      label: 'New config name',
      value: form.values.name,
      problem: visibleProblem(
        form,
        'name',
        (name) => checkConfigName(name) ?? createRefusal(state, name.trim()),
      ),
      onInput: (value) => actions.input('create', 'name', value),
    })}
    <button type="submit" class="button">Create config</button>
  </form>`;
}
