/**
 * The bulk bar above the links: how many are selected, "Select all N shown" and "Clear selection";
 * with a selection, add or remove tags, set a field, move or copy to another config the key may write,
 * and delete. After an action: what it did, with Undo. Also the keyboard shortcuts dialog (`?`).
 */
import { html, nothing } from 'lit-html';
import type { TemplateResult } from 'lit-html';
import { live } from 'lit-html/directives/live.js';
import type { Actions } from './actions.js';
import { SHORTCUTS } from '../model/shortcuts.js';
import type { AppState, OpenConfig } from '../state/state.js';
import { writeRefusal } from '../state/status-model.js';

/** The bulk bar for the links found (`found`: their ids, in the order shown). */
export function bulkBar(
  state: AppState,
  open: OpenConfig,
  options: { actions: Actions; found: readonly string[] },
): TemplateResult {
  const { actions, found } = options;
  const bulk = state.bulk;
  // One set per render: a selection of 500 against 500 found stays linear.
  const selected = new Set(bulk.selection.ids);
  const count = selected.size;
  const readOnly = writeRefusal(state, open.name) !== null;
  const targets = state.configs
    .map((item) => item.name)
    .filter((name) => name !== open.name && writeRefusal(state, name) === null);
  const off = readOnly || bulk.busy;
  return html`<div
    class="bulk-bar"
    role="region"
    aria-label="Bulk edit"
    data-testid="bulk-bar"
    ?data-active=${count > 0}
  >
    <p class="bulk-count">
      <span data-testid="bulk-count" data-count=${count}
        >${count === 0 ? 'No link selected' : `${count} selected`}</span
      >
      ${
        found.some((id) => !selected.has(id))
          ? html`<button
              type="button"
              class="button small ghost"
              data-testid="select-all-shown"
              @click=${() => actions.bulk.selectAll(found)}
            >
              Select all ${found.length} shown
            </button>`
          : nothing
      }
      ${
        count === 0
          ? nothing
          : html`<button
              type="button"
              class="button small ghost"
              data-testid="clear-selection"
              @click=${() => actions.bulk.clear()}
            >
              Clear selection
            </button>`
      }
    </p>
    ${count === 0 ? nothing : tools(state, { actions, off, targets, count })}
    ${
      bulk.problem === null
        ? nothing
        : html`<p class="problem" role="alert" data-testid="bulk-problem">
            ${bulk.problem}
          </p>`
    }
    ${applied(state, open, actions)}
  </div>`;
}

function tools(
  state: AppState,
  options: { actions: Actions; off: boolean; targets: string[]; count: number },
): TemplateResult {
  const { actions, off, targets, count } = options;
  const bulk = state.bulk;
  const input = (field: 'tags' | 'field' | 'value') => (event: Event) =>
    actions.bulk.input(field, (event.target as HTMLInputElement).value);
  return html`<div class="bulk-tools">
    <div class="bulk-group">
      <label for="bulk-tags">Tags to add or remove</label>
      <input
        id="bulk-tags"
        autocomplete="off"
        spellcheck="false"
        placeholder="nyc, bridge"
        .value=${live(bulk.tags)}
        @input=${input('tags')}
      />
      <button
        type="button"
        class="button small"
        data-testid="bulk-add-tags"
        ?disabled=${off}
        @click=${() => actions.bulk.apply('add-tags')}
      >
        Add tags
      </button>
      <button
        type="button"
        class="button small"
        data-testid="bulk-remove-tags"
        ?disabled=${off}
        @click=${() => actions.bulk.apply('remove-tags')}
      >
        Remove tags
      </button>
    </div>
    <div class="bulk-group">
      <label for="bulk-field">Field name</label>
      <input
        id="bulk-field"
        class="bulk-field-name"
        autocomplete="off"
        spellcheck="false"
        .value=${live(bulk.field)}
        @input=${input('field')}
      />
      <label for="bulk-value">Field value</label>
      <input
        id="bulk-value"
        autocomplete="off"
        placeholder="empty: removes it"
        .value=${live(bulk.value)}
        @input=${input('value')}
      />
      <button
        type="button"
        class="button small"
        data-testid="bulk-set-field"
        ?disabled=${off}
        @click=${() => actions.bulk.apply('set-field')}
      >
        Set field
      </button>
    </div>
    <div class="bulk-group">
      <label for="bulk-target">Move or copy to</label>
      <select
        id="bulk-target"
        @change=${(event: Event) =>
          actions.bulk.input(
            'target',
            (event.target as HTMLSelectElement).value,
          )}
      >
        <option value="" ?selected=${bulk.target === ''}>
          ${targets.length === 0 ? 'none this key may write' : 'Choose…'}
        </option>
        ${targets.map(
          (name) =>
            html`<option value=${name} ?selected=${name === bulk.target}>
              ${name}
            </option>`,
        )}
      </select>
      <button
        type="button"
        class="button small"
        data-testid="bulk-move"
        ?disabled=${off || bulk.target === ''}
        @click=${() => actions.bulk.transfer('move')}
      >
        Move
      </button>
      <button
        type="button"
        class="button small"
        data-testid="bulk-copy"
        ?disabled=${bulk.busy || bulk.target === ''}
        @click=${() => actions.bulk.transfer('copy')}
      >
        Copy
      </button>
    </div>
    <button
      type="button"
      class="button small ghost danger"
      data-testid="bulk-delete"
      ?disabled=${off}
      @click=${() => actions.bulk.apply('delete')}
    >
      Delete ${count} ${count === 1 ? 'link' : 'links'}
    </button>
  </div>`;
}

/** What the last bulk action did, with Undo (one step). */
function applied(
  state: AppState,
  open: OpenConfig,
  actions: Actions,
): TemplateResult | typeof nothing {
  const last = state.bulk.applied;
  if (last === null || last.name !== open.name) return nothing;
  return html`<p class="bulk-applied" data-testid="bulk-applied">
    <span>${last.summary}.</span>
    <button
      type="button"
      id="bulk-undo"
      class="button small primary"
      data-testid="bulk-undo"
      ?disabled=${state.bulk.busy}
      @click=${() => actions.bulk.undo()}
    >
      Undo
    </button>
  </p>`;
}

/** The keyboard shortcuts dialog (`?`). */
export function shortcutsDialog(actions: Actions): TemplateResult {
  return html`<dialog
    id="shortcuts-dialog"
    class="dialog"
    aria-labelledby="shortcuts-title"
    data-testid="shortcuts-dialog"
    @close=${() => actions.table.showHelp(false)}
  >
    <form method="dialog">
      <h2 id="shortcuts-title">Keyboard shortcuts</h2>
      <p>Outside a text field, in the list of links:</p>
      <table class="shortcuts">
        <caption class="visually-hidden">
          Keys and what they do
        </caption>
        <tbody>
          ${SHORTCUTS.map(
            ({ key, what }) =>
              html`<tr>
                <th scope="row">
                  <kbd>${key === 'Escape' ? 'Esc' : key}</kbd>
                </th>
                <td>${what}</td>
              </tr>`,
          )}
          <tr>
            <th scope="row"><kbd>Ctrl</kbd>+<kbd>S</kbd></th>
            <td>Save the config (in a text field too)</td>
          </tr>
        </tbody>
      </table>
      <div class="actions">
        <button type="submit" class="button primary" autofocus>Close</button>
      </div>
    </form>
  </dialog>`;
}
