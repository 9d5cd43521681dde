/**
 * The import and export dialog's actions: the file (chosen, dropped or pasted) is read and planned by the
 * shared converters (`@linkconfig/shared`, the same as `linkconfig import`), the plan is shown, and only a
 * confirmed import is saved, through the session's hybrid store (so it works offline too).
 */
import {
  decodeImportBytes,
  exportLosses,
  planImport,
  readImport,
  writeBookmarksHtml,
  writeCsv,
  writeJson,
} from '@linkconfig/shared';
import type { ImportMode, TransferFormat } from '@linkconfig/shared';
import { checkConfigName } from '../model/input-checks.js';
import type { PageContext } from './page-context.js';
import { initialTransfer } from '../state/transfer-state.js';

const DIALOG_ID = 'import-dialog';

const MEDIA_TYPES: Record<TransferFormat, string> = {
  json: 'application/json',
  html: 'text/html',
  csv: 'text/csv',
};

/** What the page does after an import: opens (or reopens) the config it went into. */
export type ShowConfig = (name: string) => Promise<void>;

export class TransferActions {
  constructor(
    private readonly page: PageContext,
    private readonly show: ShowConfig,
  ) {}

  private get state() {
    return this.page.state.transfer;
  }

  /** Opens the dialog, importing into the open config unless the person names another. */
  openDialog(): void {
    const dialog = document.getElementById(DIALOG_ID);
    if (!(dialog instanceof HTMLDialogElement) || dialog.open) return;
    const open = this.page.state.open;
    const config = open === null ? null : this.page.raw(open.draft);
    this.page.state.transfer = {
      ...initialTransfer(),
      into: open?.name ?? '',
      // Said before any download: the dialog is modal, so the config does not change while it is open.
      exportLosses:
        config === null
          ? null
          : {
              json: exportLosses(config, 'json'),
              html: exportLosses(config, 'html'),
              csv: exportLosses(config, 'csv'),
            },
    };
    // The input keeps the last file; choosing the same file again must be a change.
    const input = document.getElementById('import-file');
    if (input instanceof HTMLInputElement) input.value = '';
    dialog.showModal();
  }

  closeDialog(): void {
    const dialog = document.getElementById(DIALOG_ID);
    if (dialog instanceof HTMLDialogElement) dialog.close();
  }

  /** A file was chosen or dropped: its text replaces what was pasted. */
  async chooseFile(file: File): Promise<void> {
    // Decoded by the shared rule: bytes that are not UTF-8 are reported in the preview, not hidden.
    const { text, malformedLines } = decodeImportBytes(
      new Uint8Array(await file.arrayBuffer()),
    );
    this.state.text = text;
    this.state.malformedLines = malformedLines;
    this.state.fileName = file.name;
    await this.preview();
  }

  pasteText(text: string): void {
    this.state.text = text;
    this.state.malformedLines = [];
    this.state.fileName = null;
    this.state.preview = null;
  }

  setInto(name: string): void {
    this.state.into = name;
    this.state.preview = null;
  }

  setMode(mode: ImportMode): void {
    this.state.mode = mode;
    this.state.preview = null;
  }

  /** Reads and plans the import against the config as this browser has it; writes nothing. */
  async preview(): Promise<void> {
    const state = this.state;
    state.preview = null;
    state.problem = null;
    const session = this.page.session();
    const into = state.into.trim();
    const nameProblem = checkConfigName(into);
    if (!session) return;
    if (state.text.trim() === '') {
      state.problem = 'Choose, drop or paste a file first.';
      return;
    }
    if (nameProblem !== null) {
      state.problem = `The config to import into: ${nameProblem}`;
      this.page.focus('#import-into');
      return;
    }
    if (this.page.state.open?.name === into && this.page.state.open.dirty) {
      state.problem = `“${into}” has unsaved edits: save or discard them first.`;
      return;
    }
    const read = readImport(state.text, {
      fileName: state.fileName ?? undefined,
      malformedLines: state.malformedLines,
    });
    if (!read.ok) {
      state.problem = `This file cannot be imported: ${read.error}.`;
      return;
    }
    let existing;
    try {
      existing = await session.store.load(into);
    } catch (error) {
      state.problem = this.page.describe(error);
      return;
    }
    const plan = planImport(read.parsed, { mode: state.mode, existing });
    state.preview = {
      into,
      exists: existing !== null,
      report: plan.report,
      config: plan.config,
    };
    this.page.focus('#import-preview-heading');
  }

  /** Saves the previewed import, then shows the config. */
  async confirm(): Promise<void> {
    const session = this.page.session();
    const preview = this.state.preview;
    if (!session || preview === null || this.state.busy) return;
    this.state.busy = true;
    try {
      await session.store.save(preview.into, this.page.raw(preview.config));
    } catch (error) {
      this.state.problem = `Not imported: ${this.page.describe(error)}`;
      return;
    } finally {
      this.state.busy = false;
    }
    const { added, merged } = preview.report;
    this.closeDialog();
    await this.page.refreshNames();
    await this.show(preview.into);
    this.page.announce(
      `Imported into “${preview.into}”: ${added.length} new, ${merged.length} merged.`,
    );
  }

  /** Downloads the open config (as saved, with unsaved edits) in `format`. */
  download(format: TransferFormat): void {
    const open = this.page.state.open;
    if (open === null) return;
    const config = this.page.raw(open.draft);
    const text =
      format === 'html'
        ? writeBookmarksHtml(config, { title: open.name })
        : format === 'csv'
          ? writeCsv(config)
          : writeJson(config);
    const url = URL.createObjectURL(
      new Blob([text], { type: `${MEDIA_TYPES[format]};charset=utf-8` }),
    );
    const link = document.createElement('a');
    link.href = url;
    link.download = `${open.name}.${format}`;
    link.click();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
    this.note(`Downloaded “${link.download}”.`);
  }

  /** Copies the open config as JSON. */
  async copyJson(): Promise<void> {
    const open = this.page.state.open;
    if (open === null) return;
    try {
      await navigator.clipboard.writeText(writeJson(this.page.raw(open.draft)));
      this.note(`Copied “${open.name}” as JSON.`);
    } catch {
      this.note('This browser did not allow copying; use Download JSON.');
    }
  }

  private note(text: string): void {
    this.state.exportNote = text;
    this.page.announce(text);
  }
}
