/**
 * The open config: a bar with its name, whether it is saved, and Save/Delete (it stays in view while
 * scrolling), then its links, macros, search patterns and settings.
 */
import { html, nothing } from 'lit-html';
import type { TemplateResult } from 'lit-html';
import type { Actions } from './actions.js';
import type { AppState, OpenConfig } from '../state/state.js';
import { writeRefusal } from '../state/status-model.js';
import { tokenButton } from './view-parts.js';
import { picksView } from './view-conflict-picks.js';
import { extrasView } from './view-config-extras.js';
import { historyView } from './view-history.js';
import { publishView } from './view-publish.js';
import { linksView } from './view-links.js';
import { queryView } from './view-query.js';
import { tagsView } from './tags-view.js';
import { duplicatesView } from './view-duplicates.js';
import { orderView } from './view-order.js';

/** The editor section: a config, or a message when none is open. */
export function editorView(state: AppState, actions: Actions): TemplateResult {
  const open = state.open;
  return html`<section
    id="editor"
    class="panel editor"
    data-testid="editor"
    aria-labelledby="editor-kicker editor-heading"
    tabindex="-1"
  >
    ${
      open === null
        ? html`<p class="kicker" id="editor-kicker">No config open</p>
            <h2 id="editor-heading" data-testid="editor-heading" tabindex="-1">
              Welcome
            </h2>
            <p class="welcome" data-testid="welcome">
              A link config is a named set of links (each with a label, a URL
              and tags) with macros and search patterns. Pages pick links from
              it with expressions such as <code>.nyc + .bridge</code> to build
              their link menus.
            </p>
            <p data-testid="editor-hint" class="editor-hint">
              ${state.editorMessage}
            </p>`
        : html`${editorBar(open, state, actions)} ${historyView(state, actions)}
            ${publishView(state, actions)}
            <div class="editor-body" data-testid="editor-body">
              ${linksView(open, state, actions)}
              ${queryView(open, state, actions)}
              ${tagsView(open, state, actions)}
              ${duplicatesView(open, state, actions)}
              ${orderView(open, state, actions)}
              <fieldset
                class="editor-extras"
                ?disabled=${writeRefusal(state, open.name) !== null}
              >
                <legend class="visually-hidden">
                  Macros, search patterns and settings
                </legend>
                ${extrasView(open, state, actions)}
              </fieldset>
            </div>`
    }
  </section>`;
}

/** What the draft-state line says. */
function draftState(open: OpenConfig, state: AppState): string {
  if (open.remote === 'removed')
    return open.dirty
      ? 'Deleted elsewhere; your unsaved edits are here: “Save config” creates it again.'
      : 'Deleted elsewhere: what you see is no longer saved.';
  if (open.remote === 'changed')
    return 'Unsaved edits, and a newer version elsewhere changes the same places: choose below before saving.';
  if (open.dirty)
    return 'Unsaved edits: press “Save config” (or Ctrl+S) to keep them.';
  // What the store says of this name (its status), as the header counts it.
  const facts = state.hybrid.names[open.name];
  if (facts?.conflict !== undefined)
    return 'Saved in this browser; the server holds another version: choose which to keep.';
  if (facts?.pending !== undefined)
    return 'Saved in this browser; it will be sent to the server.';
  if (facts?.deadLetter !== undefined)
    return 'Saved in this browser; the server refused it: see the message above.';
  const item = state.configs.find((config) => config.name === open.name);
  if (item?.server === false)
    return 'Saved in this browser only: the server does not have it.';
  return 'Saved in this browser and on the server.';
}

function editorBar(
  open: OpenConfig,
  state: AppState,
  actions: Actions,
): TemplateResult {
  const refusal = writeRefusal(state, open.name);
  const readOnly = refusal !== null;
  return html`<div class="editor-bar">
    <div class="editor-title">
      <p class="kicker" id="editor-kicker">Config</p>
      <h2
        id="editor-heading"
        data-testid="editor-heading"
        data-config-name=${open.name}
        tabindex="-1"
      >
        ${open.name}
      </h2>
      <p
        class="draft-state"
        data-testid="draft-state"
        data-dirty=${String(open.dirty)}
      >
        ${draftState(open, state)}
      </p>
    </div>
    <div class="actions editor-actions">
      <button
        type="button"
        class="button primary"
        data-testid="save-config"
        ?disabled=${readOnly || !open.dirty || open.remote !== null}
        aria-describedby=${
          open.saveProblem
            ? 'save-problem'
            : readOnly
              ? 'read-only-notice'
              : nothing
        }
        @click=${() => actions.saveConfig()}
      >
        Save config
      </button>
      <button
        type="button"
        class="button ghost"
        data-testid="revert-config"
        ?disabled=${!open.dirty || readOnly}
        @click=${() => actions.revertConfig()}
      >
        Revert to saved
      </button>
      <button
        type="button"
        class="button ghost"
        data-testid="open-history"
        aria-expanded=${String(state.history.name === open.name)}
        @click=${() =>
          state.history.name === open.name
            ? actions.history.closePanel()
            : actions.history.openPanel()}
      >
        History
      </button>
      <button
        type="button"
        class="button ghost"
        data-testid="open-publish"
        aria-expanded=${String(state.publish.name === open.name)}
        @click=${() =>
          state.publish.name === open.name
            ? actions.publish.closePanel()
            : actions.publish.openPanel()}
      >
        Publishing
      </button>
      <button
        type="button"
        class="button ghost danger"
        data-testid="delete-config"
        ?disabled=${readOnly}
        @click=${() => actions.deleteConfig()}
      >
        Delete config
      </button>
    </div>
    ${
      open.saveProblem
        ? html`<p class="problem" id="save-problem" data-testid="save-problem">
            ${open.saveProblem}
          </p>`
        : nothing
    }
    ${
      readOnly
        ? html`<p
            class="notice read-only"
            id="read-only-notice"
            data-testid="read-only-notice"
          >
            ${refusal} ${tokenButton(() => actions.openSettings())}
          </p>`
        : nothing
    }
    <div data-testid="remote-change" class="remote-change">
      ${remoteNotice(open, actions)}
    </div>
  </div>`;
}

/** The notice about a change made elsewhere to the open config, with the choices it leaves. */
function remoteNotice(
  open: OpenConfig,
  actions: Actions,
): TemplateResult | typeof nothing {
  if (open.remote === null) return nothing;
  const changed = open.remote === 'changed';
  return html`<div
    class="notice remote-notice"
    role="group"
    aria-labelledby="remote-change-text"
    data-testid="remote-change-notice"
    data-remote=${open.remote}
    tabindex="-1"
  >
    <p id="remote-change-text">
      ${
        changed
          ? html`<strong>This config changed on the server</strong> (or in
              another tab) while you were editing, in places you edited too.
              Everything else was merged into your edits. Choose per field
              below, then save; or “Show theirs” (drops your unsaved edits), or
              “Keep mine” (yours wherever both changed the same thing).`
          : html`<strong>This config was deleted elsewhere</strong> (on the
              server or in another tab). “Keep mine” lets you save it again;
              “Close it” lets it go.`
      }
    </p>
    ${
      changed && open.incoming !== null
        ? picksView({
            name: open.name,
            key: 'draft',
            conflicts: open.incoming.conflicts,
            submit: 'Use these choices',
            settle: (resolutions) => actions.remoteChange({ resolutions }),
          })
        : nothing
    }
    <div class="actions">
      ${
        changed
          ? html`<button
              type="button"
              class="button small"
              data-testid="show-theirs"
              @click=${() => actions.remoteChange('show-theirs')}
            >
              Show theirs
            </button>`
          : html`<button
              type="button"
              class="button small"
              data-testid="close-removed"
              @click=${() => actions.remoteChange('close')}
            >
              Close it
            </button>`
      }
      <button
        type="button"
        class="button small"
        data-testid="keep-mine-edits"
        @click=${() => actions.remoteChange('keep-mine')}
      >
        Keep mine
      </button>
    </div>
  </div>`;
}
