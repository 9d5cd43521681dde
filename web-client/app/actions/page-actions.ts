/**
 * The {@link Actions} the views call, each handed to the helper that carries it out: configs, forms,
 * tools (query, search, expression check) and the session (status, conflicts, token).
 */
import type { Actions } from '../views/actions.js';
import type { ConfigActions } from './config-actions.js';
import type { DraftActions } from './draft-actions.js';
import type { FormActions } from './form-actions.js';
import type { KeysActions } from './keys-actions.js';
import type { HistoryActions } from './history-actions.js';
import type { LinkActions } from './link-actions.js';
import type { LinkHealthActions } from './link-health-actions.js';
import type { PublishActions } from './publish-actions.js';
import type { SessionActions } from './session-actions.js';
import type { ToolActions } from './tool-actions.js';
import type { TransferActions } from './transfer-actions.js';
import type { TagsActions } from './tags-actions.js';
import type { DuplicatesActions } from './duplicates-actions.js';
import type { OrderActions } from './order-actions.js';
import type { BulkActions } from './bulk-actions.js';
import type { TableActions } from './table-actions.js';

/** The helpers and the page's own dialog answer. */
export interface ActionParts {
  configs: ConfigActions;
  forms: FormActions;
  drafts: DraftActions;
  links: LinkActions;
  tools: ToolActions;
  session: SessionActions;
  transfer: TransferActions;
  keys: KeysActions;
  history: HistoryActions;
  tags: TagsActions;
  linkHealth: LinkHealthActions;
  publish: PublishActions;
  duplicates: DuplicatesActions;
  order: OrderActions;
  bulk: BulkActions;
  table: TableActions;
  answer(confirmed: boolean): void;
}

/** The actions of the page. */
export function pageActions(parts: ActionParts): Actions {
  const { configs, forms, drafts, links, tools, session } = parts;
  return {
    openConfig: (name) => void configs.open(name, { moveFocus: true }),
    openResult: (configName, linkId) =>
      void configs.open(configName, { moveFocus: true, target: linkId }),
    saveConfig: () => void configs.save(),
    deleteConfig: () => void configs.remove(),
    input: (form, field, value) => {
      forms.input(form, field, value);
      if (form === 'link' && field === 'url') parts.duplicates.urlTyped(value);
    },
    submit: (form) =>
      void (form === 'create' ? configs.create() : forms.submit(form)),
    edit: (form, key) => forms.edit(form, key),
    cancelEdit: (form) => forms.cancelEdit(form),
    removeEntry: (form, key) =>
      form === 'link' ? links.remove(key) : forms.removeEntry(form, key),
    undoDelete: () => links.undo(),
    revertConfig: () => void drafts.revert(),
    settingsInput: (text) => forms.settingsInput(text),
    findLinks: (change) => links.find(change),
    linkExtra: (change) => links.extra(change),
    completeTag: (tag) => links.completeTag(tag),
    queryInput: (expression) => tools.queryInput(expression),
    runQuery: (expression) => tools.runQuery(expression),
    searchInput: (text) => tools.searchInput(text),
    searchMode: (mode) => tools.searchMode(mode),
    runSearch: () => void tools.runSearch(),
    resolveConflict: (name, answer) =>
      void session.settleConflict(name, answer),
    remoteChange: (answer) => void configs.answerRemote(answer),
    dismissMergedNote: () => configs.dismissMergedNote(),
    retryDeadLetter: (name) => session.retryDeadLetter(name),
    discardDeadLetter: (name) => session.discardDeadLetter(name),
    openSettings,
    saveToken: (token) => {
      session.saveToken(token);
      void parts.keys.loadAccess();
    },
    answer: (confirmed) => parts.answer(confirmed),
    transfer: parts.transfer,
    keys: parts.keys,
    history: {
      openPanel: () => void parts.history.openPanel(),
      closePanel: () => parts.history.closePanel(),
      more: () => void parts.history.more(),
      view: (rev) => void parts.history.view(rev),
      restore: (rev, links) => void parts.history.restore(rev, links),
      showDeleted: () => void parts.history.showDeleted(),
      undelete: (name) => void parts.history.undelete(name),
    },
    tags: parts.tags,
    duplicates: parts.duplicates,
    order: parts.order,
    linkHealth: {
      checkNow: () => void parts.linkHealth.checkNow(),
      useNewUrl: (id) => void parts.linkHealth.useNewUrl(id),
    },
    publish: publishActions(parts.publish),
    bulk: {
      select: (id, options) => parts.bulk.select(id, options),
      selectAll: (ids) => parts.bulk.selectAll(ids),
      clear: () => parts.bulk.clear(),
      input: (field, value) => parts.bulk.input(field, value),
      apply: (kind) => void parts.bulk.apply(kind),
      transfer: (mode) => void parts.bulk.transfer(mode),
      undo: () => void parts.bulk.undo(),
    },
    table: parts.table,
  };
}

/** The Publish panel's actions; the calls that wait on the server run in the background. */
function publishActions(publish: PublishActions): Actions['publish'] {
  return {
    openPanel: () => void publish.openPanel(),
    closePanel: () => publish.closePanel(),
    publish: () => void publish.publish(),
    rollback: () => void publish.rollback(),
    applySettings: () => void publish.applySettings(),
    unpublish: () => void publish.unpublish(),
    pickRollback: (rev) => publish.pickRollback(rev),
    setHideBroken: (on) => publish.setHideBroken(on),
    setAnyOrigin: (any) => publish.setAnyOrigin(any),
    inputOrigin: (text) => publish.inputOrigin(text),
    addOrigin: () => publish.addOrigin(),
    removeOrigin: (origin) => publish.removeOrigin(origin),
    copySnippet: () => publish.copySnippet(),
  };
}

/** Opens the settings dialog with an empty token field. */
function openSettings(): void {
  const dialog = document.getElementById('settings-dialog');
  if (!(dialog instanceof HTMLDialogElement) || dialog.open) return;
  const input = document.getElementById('token-input');
  if (input instanceof HTMLInputElement) input.value = '';
  dialog.showModal();
}
