/**
 * The page: it composes the state (a small store that renders by itself whenever it changes, see
 * reactive.ts), the session's stores, and the helpers that carry out what the views ask (the
 * {@link Actions}): configs, forms, tools and the session's status. Configs are read and written
 * through the session's hybrid store, so the page keeps working offline.
 *
 * Changes made elsewhere arrive through the store's live updates (the server's change feed) and from
 * other tabs; the page refreshes in the background on a timer only while live updates are not
 * connected. Conflicts the store finds are listed for the person to settle.
 */
import { ACCESS, Connection } from '@linkconfig/web-client';
import { render } from 'lit-html';
import type { Actions } from './views/actions.js';
import { ConfigActions } from './actions/config-actions.js';
import { DraftActions } from './actions/draft-actions.js';
import { FormActions } from './actions/form-actions.js';
import { KeysActions } from './actions/keys-actions.js';
import { HistoryActions } from './actions/history-actions.js';
import { LinkActions } from './actions/link-actions.js';
import { LinkHealthActions } from './actions/link-health-actions.js';
import { pageActions } from './actions/page-actions.js';
import { PublishActions } from './actions/publish-actions.js';
import type { PageContext } from './actions/page-context.js';
import {
  readOpenConfig,
  readTokenReadOnly,
  writeTokenReadOnly,
} from './session/preferences.js';
import { describeFailure } from './model/problems.js';
import { reactive } from './state/reactive.js';
import { Session } from './session/session.js';
import { SessionActions } from './actions/session-actions.js';
import { initialState } from './state/state.js';
import type { AppState, Question } from './state/state.js';
import { ToolActions } from './actions/tool-actions.js';
import { TransferActions } from './actions/transfer-actions.js';
import { TagsActions } from './actions/tags-actions.js';
import { DuplicatesActions } from './actions/duplicates-actions.js';
import { OrderActions } from './actions/order-actions.js';
import { BulkActions } from './actions/bulk-actions.js';
import { TableActions } from './actions/table-actions.js';
import { shortcutOf, takesTyping } from './model/shortcuts.js';
import { appView } from './views/view-app.js';

/**
 * How often the page refreshes the names and the open config in the background while live updates
 * are not connected (with them, changes arrive as they happen).
 */
const REFRESH_MS = 4000;

/** How often the status's "waiting for …" is brought up to date. */
const CLOCK_MS = 15_000;

/** Announcements this close are read as one (see {@link App.announce}). */
const ANNOUNCE_TOGETHER_MS = 2000;

/** The page. */
export class App implements PageContext {
  private readonly store = reactive(initialState(), () => this.render());
  private current: Session | null = null;
  private readonly connection = new Connection();
  // The open config's link health is read when it opens and once it is saved.
  private readonly configs: ConfigActions = new ConfigActions(
    this,
    (name) => void this.linkHealth.load(name),
  );
  private readonly linkHealth = new LinkHealthActions(this, () =>
    this.configs.save(),
  );
  private readonly forms = new FormActions(this);
  private readonly links = new LinkActions(this);
  private readonly drafts = new DraftActions(this, this.configs);
  private readonly tools = new ToolActions(this);
  private readonly sessionActions = new SessionActions(this, this.configs);
  // After an import the config is shown again from the store (closed first when it was open).
  private readonly transfer = new TransferActions(this, async (name) => {
    if (this.state.open?.name === name)
      this.configs.close('', { forget: false });
    await this.configs.open(name, { moveFocus: true, asked: true });
  });
  private readonly keys = new KeysActions(this);
  // After a restore the open config shows the stored version; after an undelete the config opens.
  private readonly history = new HistoryActions(this, {
    reload: async (name) => {
      const config = await this.current?.store.load(name);
      const open = this.state.open;
      if (config && open?.name === name) this.configs.show(open, config);
    },
    open: (name) => this.configs.open(name, { moveFocus: true }),
  });
  private readonly tags = new TagsActions(this, this.configs);
  private readonly publish = new PublishActions(this);
  private readonly duplicates = new DuplicatesActions(this, this.configs);
  private readonly order = new OrderActions(this);
  private readonly bulk = new BulkActions(this, this.configs);
  private readonly table = new TableActions(this, {
    edit: (id) => this.forms.edit('link', id),
    cancel: () => this.forms.cancelEdit('link'),
  });
  private readonly actions: Actions = pageActions({
    configs: this.configs,
    forms: this.forms,
    drafts: this.drafts,
    links: this.links,
    tools: this.tools,
    session: this.sessionActions,
    transfer: this.transfer,
    keys: this.keys,
    history: this.history,
    tags: this.tags,
    duplicates: this.duplicates,
    order: this.order,
    linkHealth: this.linkHealth,
    publish: this.publish,
    bulk: this.bulk,
    table: this.table,
    answer: (confirmed) => this.answer(confirmed),
  });
  private renderQueued = false;
  private focusTarget: string | null = null;
  private answerQuestion: ((confirmed: boolean) => void) | null = null;
  /** When the last announcement was made (ms). */
  private announcedAt = 0;

  constructor(private readonly root: HTMLElement) {}

  get state(): AppState {
    return this.store.state;
  }

  /** Opens the stores, shows the names and the remembered config, then refreshes in the background. */
  async start(): Promise<void> {
    // The loading text of index.html makes way for the page.
    this.root.replaceChildren();
    this.render();
    this.listen();
    let session: Session;
    try {
      session = await Session.open({
        connection: this.connection,
        events: {
          // An open Publish panel follows the draft: a save reaching the server, a change from elsewhere.
          status: () => {
            void this.sessionActions.refreshStatus();
            void this.publish.refresh();
          },
          changed: (name) => {
            this.sessionActions.changedElsewhere(name);
            void this.publish.refresh(name);
          },
          merged: (name, report) => this.configs.mergedOnSave(name, report),
        },
      });
    } catch (error) {
      this.state.fatal = `${this.describe(error)} The page cannot work without it; try a normal (not private) window.`;
      return;
    }
    this.current = session;
    this.state.tokenSet = session.token !== null;
    this.state.readOnlyRemembered = readTokenReadOnly();
    const { connection } = session;
    connection.subscribe(() => {
      this.state.access = {
        read: connection.accessFor('read'),
        write: connection.accessFor('write'),
      };
      // A token refused a write stays known as read-only after a reload, until a write succeeds; not
      // when the server said which names the key may write (a refusal is then about one name only).
      const write = this.state.access.write;
      const perName = this.state.grant !== null;
      if ((write === ACCESS.readOnly && !perName) || write === ACCESS.ok) {
        writeTokenReadOnly(write === ACCESS.readOnly);
        this.state.readOnlyRemembered = write === ACCESS.readOnly;
      }
      this.state.failures = {
        read: connection.failureOf('read'),
        write: connection.failureOf('write'),
      };
    });
    connection.reachability.subscribe((now, before) => {
      this.state.reachable = now;
      // The server answers again: send what waits now rather than at the next retry, and open the
      // config that was asked for while the server was away.
      if (now && before === false) {
        void this.current?.store.sync();
        void this.configs.retryWanted();
        void this.history.serverBack();
      }
    });
    await this.sessionActions.refreshStatus();
    await this.sessionActions.refreshNames();
    // What the key may do: the list keeps only what it may read, editing follows what it may write.
    void this.keys.loadAccess();
    const initial =
      new URLSearchParams(location.search).get('config') ?? readOpenConfig();
    if (initial !== null)
      await this.configs.open(initial, { moveFocus: false });
    this.state.ready = true;
    document.body.dataset['ready'] = 'true';
    setInterval(() => void this.sessionActions.tick(), REFRESH_MS);
    // How long changes have waited, in the status, stays current.
    setInterval(() => (this.state.clock = Date.now()), CLOCK_MS);
    document.addEventListener(
      'visibilitychange',
      () => void this.sessionActions.tick(),
    );
  }

  // --- PageContext -------------------------------------------------------------------------------

  raw<V>(value: V): V {
    return this.store.raw(value);
  }

  focus(selector: string): void {
    this.focusTarget = selector;
    this.render();
  }

  announce(text: string): void {
    // Two announcements close together are read together: the second would otherwise replace the first
    // before a screen reader had read it (an import's result, then "Saved to the server.").
    const now = Date.now();
    const recent = now - this.announcedAt < ANNOUNCE_TOGETHER_MS;
    const previous = this.state.announcement.trim();
    this.announcedAt = now;
    const next =
      recent && previous !== '' && previous !== text
        ? `${previous} ${text}`
        : text;
    // The same words twice would not be read again: vary them invisibly.
    this.state.announcement =
      this.state.announcement === next ? `${next}\u00a0` : next;
  }

  ask(question: Question): Promise<boolean> {
    this.answerQuestion?.(false);
    this.state.question = question;
    return new Promise((resolve) => (this.answerQuestion = resolve));
  }

  session(): Session | null {
    return this.current;
  }

  describe(error: unknown): string {
    return describeFailure(error, { tokenSet: this.state.tokenSet });
  }

  recheckExpression(): void {
    this.tools.checkExpression();
  }

  refreshNames(): Promise<void> {
    return this.sessionActions.refreshNames();
  }

  // --- Internals ---------------------------------------------------------------------------------

  /** The browser's events: online and offline, leaving with unsaved edits, Ctrl+S. */
  private listen(): void {
    addEventListener('online', () => {
      this.state.online = navigator.onLine;
      if (this.state.query.check.kind === 'unavailable')
        this.tools.checkExpression();
      void this.history.serverBack();
    });
    addEventListener('offline', () => (this.state.online = navigator.onLine));
    addEventListener('beforeunload', (event) => {
      // The browser asks whether to leave; it shows its own words.
      if (this.state.open?.dirty) event.preventDefault();
    });
    addEventListener('keydown', (event) => {
      if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === 's') {
        if (this.state.open === null) return;
        event.preventDefault();
        this.actions.saveConfig();
        return;
      }
      this.shortcut(event);
    });
  }

  /** The links list's keyboard shortcuts (none while a dialog is open: it has its own keys). */
  private shortcut(event: KeyboardEvent): void {
    if (event.defaultPrevented || document.querySelector('dialog[open]'))
      return;
    const focused = document.activeElement;
    const shortcut = shortcutOf({
      key: event.key,
      ctrlKey: event.ctrlKey,
      metaKey: event.metaKey,
      altKey: event.altKey,
      inTextField: focused instanceof HTMLElement && takesTyping(focused),
    });
    if (shortcut !== null && this.table.shortcut(shortcut))
      event.preventDefault();
  }

  private answer(confirmed: boolean): void {
    const resolve = this.answerQuestion;
    this.answerQuestion = null;
    this.state.question = null;
    resolve?.(confirmed);
  }

  /** Renders at the next microtask, so many changes make one render. */
  private render(): void {
    if (this.renderQueued) return;
    this.renderQueued = true;
    queueMicrotask(() => {
      this.renderQueued = false;
      render(appView(this.state, this.actions), this.root);
      this.afterRender();
      this.configs.keeper.follow(this.state.open);
    });
  }

  private afterRender(): void {
    const dialog = document.getElementById('question-dialog');
    if (
      dialog instanceof HTMLDialogElement &&
      this.state.question !== null &&
      !dialog.open
    )
      dialog.showModal();
    const help = document.getElementById('shortcuts-dialog');
    if (help instanceof HTMLDialogElement && this.state.bulk.help !== help.open)
      if (this.state.bulk.help) help.showModal();
      else help.close();
    const selector = this.focusTarget;
    if (selector === null) return;
    this.focusTarget = null;
    const target = document.querySelector(selector);
    if (!(target instanceof HTMLElement)) return;
    // A field inside a folded section: unfold it first.
    const fold = target.closest('details');
    if (fold && !fold.open) fold.open = true;
    target.focus({ preventScroll: true });
    target.scrollIntoView({ block: 'nearest' });
  }
}
