/**
 * The import and export dialog (a native `<dialog>`: focus moves in, stays in, comes back; Escape
 * closes). Import: a file chosen, dropped or pasted, the config to import into, then a preview of what
 * would be added, merged and skipped (with the reasons) before anything is saved. Export: the open
 * config downloaded as JSON, bookmarks HTML or CSV, or copied as JSON.
 */
import { TRANSFER_FORMATS } from '@linkconfig/shared';
import type { TransferFormat } from '@linkconfig/shared';
import { html, nothing } from 'lit-html';
import type { TemplateResult } from 'lit-html';
import type { Actions } from './actions.js';
import type { AppState } from '../state/state.js';
import { previewView } from './view-import-preview.js';

const FORMAT_NAMES: Record<TransferFormat, string> = {
  json: 'JSON',
  html: 'bookmarks HTML',
  csv: 'CSV',
};

function exportView(state: AppState, actions: Actions): TemplateResult {
  const open = state.open;
  if (open === null) {
    return html`<p class="hint">Open a config to export it.</p>`;
  }
  const losses = state.transfer.exportLosses;
  const left = TRANSFER_FORMATS.filter(
    (format) => (losses?.[format] ?? []).length > 0,
  );
  return html`<p class="hint">
      “${open.name}” as it is shown, unsaved edits included.
    </p>
    ${left.map(
      (format) =>
        html`<p class="hint" data-testid=${`export-losses-${format}`}>
          ${FORMAT_NAMES[format].replace(/^./, (c) => c.toUpperCase())} leaves
          out: ${(losses?.[format] ?? []).join('; ')}.
        </p>`,
    )}
    <div class="actions">
      ${TRANSFER_FORMATS.map(
        (format) =>
          html`<button
            type="button"
            class="button"
            data-testid=${`export-${format}`}
            @click=${() => actions.transfer.download(format)}
          >
            Download ${FORMAT_NAMES[format]}
          </button>`,
      )}
      <button
        type="button"
        class="button ghost"
        @click=${() => actions.transfer.copyJson()}
      >
        Copy as JSON
      </button>
    </div>
    ${state.transfer.exportNote === null ? nothing : html`<p class="hint">${state.transfer.exportNote}</p>`}`;
}

/** The dialog; opened by `actions.transfer.openDialog`. */
export function importDialog(
  state: AppState,
  actions: Actions,
): TemplateResult {
  const transfer = state.transfer;
  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    const file = event.dataTransfer?.files[0];
    if (file !== undefined) void actions.transfer.chooseFile(file);
  };
  return html`<dialog
    id="import-dialog"
    class="dialog import-dialog"
    aria-labelledby="import-title"
    data-testid="import-dialog"
    @dragover=${(event: DragEvent) => event.preventDefault()}
    @drop=${onDrop}
  >
    <form
      method="dialog"
      @submit=${(event: SubmitEvent) => {
        const submitter = event.submitter as HTMLButtonElement | null;
        if (submitter?.value === 'preview') {
          event.preventDefault();
          void actions.transfer.preview();
        }
      }}
    >
      <h2 id="import-title">Import and export</h2>
      <h3>Import links</h3>
      <div class="field">
        <label for="import-file"
          >A file: bookmarks HTML (from a browser or a bookmark manager), CSV or
          JSON</label
        >
        <input
          id="import-file"
          type="file"
          accept=".html,.htm,.csv,.json,text/html,text/csv,application/json"
          aria-describedby="import-file-hint"
          @change=${(event: Event) => {
            const file = (event.target as HTMLInputElement).files?.[0];
            if (file !== undefined) void actions.transfer.chooseFile(file);
          }}
        />
        <p class="hint" id="import-file-hint">
          Or drop a file onto this dialog.
          ${transfer.fileName === null ? '' : `Read: ${transfer.fileName}.`}
        </p>
      </div>
      <div class="field">
        <label for="import-text">Or paste its content</label>
        <textarea
          id="import-text"
          rows="4"
          spellcheck="false"
          .value=${transfer.fileName === null ? transfer.text : ''}
          @input=${(event: Event) => actions.transfer.pasteText((event.target as HTMLTextAreaElement).value)}
        ></textarea>
      </div>
      <div class="field">
        <label for="import-into">Into the config</label>
        <input
          id="import-into"
          autocomplete="off"
          spellcheck="false"
          aria-describedby="import-into-hint"
          .value=${transfer.into}
          @input=${(event: Event) => actions.transfer.setInto((event.target as HTMLInputElement).value)}
        />
        <p class="hint" id="import-into-hint">
          The open config, or a new name to create a config.
        </p>
      </div>
      <div class="field">
        <label for="import-mode">Links already in the config</label>
        <select
          id="import-mode"
          @change=${(event: Event) =>
            actions.transfer.setMode(
              (event.target as HTMLSelectElement).value === 'replace'
                ? 'replace'
                : 'merge',
            )}
        >
          <option value="merge" ?selected=${transfer.mode === 'merge'}>
            Keep them, add the new ones
          </option>
          <option value="replace" ?selected=${transfer.mode === 'replace'}>
            Replace them with the file's links
          </option>
        </select>
      </div>
      ${transfer.problem === null ? nothing : html`<p class="problem" role="alert" data-testid="import-problem">${transfer.problem}</p>`}
      <div class="actions">
        <button
          type="submit"
          value="preview"
          class="button"
          data-testid="import-preview-button"
        >
          Preview
        </button>
      </div>
      ${transfer.preview === null ? nothing : previewView(transfer.preview, actions, transfer.busy)}
      <h3>Export</h3>
      ${exportView(state, actions)}
      <div class="actions">
        <button type="submit" value="close" class="button ghost">Close</button>
      </div>
    </form>
  </dialog>`;
}
