/** What the views ask the page to do: the controller (app.ts) implements it. */
import type { ImportMode, TransferFormat } from '@linkconfig/shared';
import type { ConflictResolution, KeyScope } from '@linkconfig/shared';
import type { KeyFields } from '../state/keys-state.js';
import type { SearchMode } from '../session/api.js';
import type { LinkSort } from '../model/link-finder.js';
import type { HealthFacet } from '../model/link-health.js';
import type { AppState } from '../state/state.js';
import type { LinkMergeSide, LinkMove } from '@linkconfig/shared';

/** The forms whose fields the controller keeps in state. */
export type FormName = 'create' | 'link' | 'macro' | 'pattern';
/** The field names of form `K`. */
export type FieldOf<K extends FormName> = {
  [F in keyof AppState[K]['values']]-?: AppState[K]['values'][F] extends
    string | undefined
    ? F
    : never;
}[keyof AppState[K]['values']] &
  string;
/** The config sections edited through a form: links, macros, search patterns. */
export type SectionForm = Exclude<FormName, 'create'>;
/**
 * How to end a conflict: keep this browser's version, take the server's, merge the two (every link,
 * yours where both have an id: only when the version both started from is unknown), or settle each
 * true conflict of the three-way merge.
 */
export type ConflictAnswer =
  | 'keep-local'
  | 'take-remote'
  | 'merge'
  | { resolutions: ConflictResolution[] };
/**
 * The answer to a change made elsewhere to the open config: show the other version (dropping unsaved
 * edits), keep mine (mine where both changed the same thing; or create a removed config again), close
 * it, or settle each conflict of the draft with the other version as picked.
 */
export type RemoteChangeAnswer =
  'show-theirs' | 'keep-mine' | 'close' | { resolutions: ConflictResolution[] };

/** A change to how the links list is narrowed or ordered. */
export type FindChange =
  | { filter: string }
  | { toggleTag: string }
  | { toggleHealth: HealthFacet }
  | { sort: LinkSort }
  /** A table column pressed: order by it, or turn its order around when it already orders. */
  | { column: LinkSort }
  | { more: true }
  | { allTags: boolean }
  | { clear: true };

/** A change to the link form's other fields: add one, remove one, or edit its name or value. */
export type ExtraChange =
  | { add: true }
  | { remove: number }
  | { index: number; key?: string; value?: string };

/** Everything a view can trigger. */
export interface Actions {
  /** Opens config `name` (asking first when the open one has unsaved edits). */
  openConfig(name: string): void;
  /** A field of a form was edited. */
  input<K extends FormName>(form: K, field: FieldOf<K>, value: string): void;
  /** A form was submitted. */
  submit(form: FormName): void;
  /** Starts editing the entry `key` of a section (fills the form). */
  edit(form: SectionForm, key: string): void;
  /** Stops editing (empties the form). */
  cancelEdit(form: SectionForm): void;
  /** Removes the entry `key` of a section from the draft. */
  removeEntry(form: SectionForm, key: string): void;
  /** Narrows, orders or widens the links list. */
  findLinks(change: FindChange): void;
  /** Edits the link form's other fields. */
  linkExtra(change: ExtraChange): void;
  /** Completes the tag being typed in the link form. */
  completeTag(tag: string): void;
  /** Puts back the link deleted last. */
  undoDelete(): void;
  /** Discards the draft for the saved version (asking first, saying what would be lost). */
  revertConfig(): void;
  /** The settings JSON text changed. */
  settingsInput(text: string): void;
  saveConfig(): void;
  deleteConfig(): void;
  queryInput(expression: string): void;
  /** Runs the expression in the field, or `expression` (an example) after putting it there. */
  runQuery(expression?: string): void;
  searchInput(text: string): void;
  searchMode(mode: SearchMode): void;
  runSearch(): void;
  /** Opens a search result's config, pointing at the link. */
  openResult(configName: string, linkId: string): void;
  /** Ends the conflict of config `name`. */
  resolveConflict(name: string, answer: ConflictAnswer): void;
  /** Hides the note that changes made elsewhere were merged. */
  dismissMergedNote(): void;
  /** Answers the notice about a change made elsewhere to the open config. */
  remoteChange(answer: RemoteChangeAnswer): void;
  retryDeadLetter(name: string): void;
  discardDeadLetter(name: string): void;
  openSettings(): void;
  /** Signs in with a key or token (empty: signs out), then asks what it may do. */
  saveToken(token: string): void;
  /** The answer to the open question dialog. */
  answer(confirmed: boolean): void;
  /** The import and export dialog. */
  transfer: TransferDialogActions;
  /** The Keys panel of an admin key. */
  keys: KeysPanelActions;
  /** The History panel and the recently deleted configs. */
  history: HistoryPanelActions;
  /** The Tags section (tags-actions.ts). */
  tags: TagsSectionActions;
  /** The link health of the open config. */
  linkHealth: LinkHealthPanelActions;
  /** The Publish panel of the open config (publish-actions.ts). */
  publish: PublishPanelActions;
  /** The Duplicates section and the link form's URL warning (duplicates-actions.ts). */
  duplicates: DuplicatesSectionActions;
  /** The Menu order section (order-actions.ts). */
  order: OrderSectionActions;
  /** Selecting links and the bulk actions on them (bulk-actions.ts). */
  bulk: BulkBarActions;
  /** The table's cell edits and the keyboard shortcuts (table-actions.ts). */
  table: TableViewActions;
}

/** What the Publish panel can ask (publish-actions.ts). */
export interface PublishPanelActions {
  openPanel(): void;
  closePanel(): void;
  /** Publishes the draft shown (under its ETag). */
  publish(): void;
  /** Publishes the revision picked, after asking. */
  rollback(): void;
  /** Publishes the published revision again with the sites and option as edited. */
  applySettings(): void;
  unpublish(): void;
  pickRollback(rev: number): void;
  setHideBroken(on: boolean): void;
  setAnyOrigin(any: boolean): void;
  inputOrigin(text: string): void;
  addOrigin(): void;
  removeOrigin(origin: string): void;
  copySnippet(): Promise<void>;
}

/** What the Duplicates section can ask (duplicates-actions.ts). */
export interface DuplicatesSectionActions {
  show(shown: boolean): void;
  startMerge(keep: string, remove: string): void;
  swap(): void;
  pick(field: string, side: LinkMergeSide): void;
  cancelMerge(): void;
  applyMerge(): Promise<void>;
  undo(): Promise<void>;
  lookAcross(): Promise<void>;
}

/** What the Menu order section can ask (order-actions.ts). */
export interface OrderSectionActions {
  show(shown: boolean): void;
  more(): void;
  drag(id: string | null): void;
  /** Moves link `id`; focus goes back to its row, or to its control `focusOn`. */
  move(id: string, move: LinkMove, focusOn?: string): void;
}

/** What the links list's selection and bulk bar can ask (bulk-actions.ts). */
export interface BulkBarActions {
  select(
    id: string,
    options: { range: boolean; order: readonly string[] },
  ): void;
  selectAll(ids: readonly string[]): void;
  clear(): void;
  input(field: 'tags' | 'field' | 'value' | 'target', value: string): void;
  apply(kind: 'add-tags' | 'remove-tags' | 'delete' | 'set-field'): void;
  transfer(mode: 'move' | 'copy'): void;
  undo(): void;
}

/** What the table and the shortcuts dialog can ask (table-actions.ts). */
export interface TableViewActions {
  startCell(id: string, field: 'label' | 'url' | 'tags'): void;
  cellInput(value: string): void;
  commitCell(): void;
  cancelCell(): void;
  showHelp(shown: boolean): void;
}

/** What the Tags section can ask (tags-actions.ts). */
export interface TagsSectionActions {
  show(shown: boolean): void;
  choose(tag: string): void;
  setTo(text: string): void;
  preview(): void;
  apply(): Promise<void>;
  undo(): Promise<void>;
}

/** What the links list can ask of link health (link-health-actions.ts). */
export interface LinkHealthPanelActions {
  /** Asks the server to check the open config's links now, then follows the results. */
  checkNow(): void;
  /** Puts the new URL of link `id` (every moved link when absent) in place, saved as one revision. */
  useNewUrl(id?: string): void;
}

/** What the Keys panel can ask (keys-actions.ts). */
export interface KeysPanelActions {
  openDialog(): void;
  closed(): void;
  input(field: Exclude<keyof KeyFields, 'scope'>, value: string): void;
  setScope(scope: KeyScope): void;
  create(): Promise<void>;
  copySecret(): Promise<void>;
  revoke(id: string): Promise<void>;
}

/** What the import and export dialog can ask (transfer-actions.ts). */
export interface TransferDialogActions {
  openDialog(): void;
  chooseFile(file: File): Promise<void>;
  pasteText(text: string): void;
  setInto(name: string): void;
  setMode(mode: ImportMode): void;
  preview(): Promise<void>;
  confirm(): Promise<void>;
  download(format: TransferFormat): void;
  copyJson(): Promise<void>;
}

/** What the History panel and the "Recently deleted" list can ask (history-actions.ts). */
export interface HistoryPanelActions {
  openPanel(): void;
  closePanel(): void;
  more(): void;
  view(rev: number): void;
  /** Restores revision `rev` (only `links` of it, when given). */
  restore(rev: number, links?: string[]): void;
  showDeleted(): void;
  undelete(name: string): void;
}
