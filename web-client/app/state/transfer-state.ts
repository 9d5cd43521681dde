/** The state of the import and export dialog (view-import.ts, transfer-actions.ts). */
import type {
  ImportMode,
  ImportReport,
  LinkConfig,
  TransferFormat,
} from '@linkconfig/shared';

/** What an import would do, shown before anything is written. */
export interface ImportPreview {
  /** The config it goes into, and whether that exists already. */
  into: string;
  exists: boolean;
  report: ImportReport;
  /** The config to save when the person confirms. */
  config: LinkConfig;
}

export interface TransferState {
  /** The file's text (chosen, dropped or pasted), and its name when it came from a file. */
  text: string;
  fileName: string | null;
  /** Lines of the chosen file whose bytes were not UTF-8 (the preview reports them). */
  malformedLines: readonly number[];
  /** The config to import into: the open one by default, or a new name. */
  into: string;
  mode: ImportMode;
  preview: ImportPreview | null;
  /** Why there is no preview, or why the import did not happen. */
  problem: string | null;
  busy: boolean;
  /** What the last export did ("Copied …"), read out and shown. */
  exportNote: string | null;
  /** Per format, what an export of the open config leaves out (`exportLosses`), taken when the dialog opens. */
  exportLosses: Readonly<Record<TransferFormat, readonly string[]>> | null;
}

export function initialTransfer(): TransferState {
  return {
    text: '',
    fileName: null,
    malformedLines: [],
    into: '',
    mode: 'merge',
    preview: null,
    problem: null,
    busy: false,
    exportNote: null,
    exportLosses: null,
  };
}
