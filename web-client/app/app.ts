/**
 * The page's controller: it owns the state, renders it with lit-html, and carries out what the views
 * ask (the {@link Actions}). Configs are read and written through the session's hybrid store, so the
 * page keeps working offline; forms and tools are handled by FormActions and ToolActions.
 */
import { validateLinkConfig } from '@linkconfig/shared';
import type { LinkConfig } from '@linkconfig/shared';
import { sortNames } from '@linkconfig/web-client';
import { render } from 'lit-html';
import type { Actions, FieldOf, FormName, SectionForm } from './actions.js';
import type { SearchMode } from './api.js';
import { settingsText } from './config-draft.js';
import { FormActions } from './form-actions.js';
import { checkConfigName } from './input-checks.js';
import type { PageContext } from './page-context.js';
import {
  readOpenConfig,
  readServerNames,
  writeOpenConfig,
  writeServerNames,
} from './preferences.js';
import { describeFailure } from './problems.js';
import { Reachability } from './reachability.js';
import { ACCESS } from './server-health.js';
import { Session } from './session.js';
import type { PendingWrites } from './session.js';
import {
  emptyForm,
  initialState,
  NO_LINK,
  NO_MACRO,
  NO_PATTERN,
} from './state.js';
import type { AppState, Question } from './state.js';
import { ToolActions } from './tool-actions.js';
import { appView } from './view-app.js';

/** How often the page refreshes the names and the open config in the background. */
const REFRESH_MS = 4000;

/** The page. */
export class App implements Actions, PageContext {
  readonly state: AppState = initialState();
  private current: Session | null = null;
  private readonly reach = new Reachability();
  private readonly forms = new FormActions(this);
  private readonly tools = new ToolActions(this);
  private pending: PendingWrites = new Map();
  private renderQueued = false;
  private focusTarget: string | null = null;
  private answerQuestion: ((confirmed: boolean) => void) | null = null;
  /** A config the person asked for that could not be opened yet (no token, server away). */
  private wanted: string | null = null;
  /** Counts opens, so a slow load never replaces a later choice. */
  private openRun = 0;

  constructor(private readonly root: HTMLElement) {}

  /** Opens the stores, shows the names and the remembered config, then refreshes in the background. */
  async start(): Promise<void> {
    // The loading text of index.html makes way for the page.
    this.root.replaceChildren();
    this.render();
    addEventListener('online', () => this.setOnline());
    addEventListener('offline', () => this.setOnline());
    addEventListener('beforeunload', (event) => {
      // The browser asks whether to leave; it shows its own words.
      if (this.state.open?.dirty) event.preventDefault();
    });
    addEventListener('keydown', (event) => {
      if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === 's') {
        if (this.state.open === null) return;
        event.preventDefault();
        this.saveConfig();
      }
    });
    let session: Session;
    try {
      session = await Session.open({
        reach: this.reach,
        events: {
          status: () => void this.refreshStatus(),
          changed: (name) => void this.remoteChanged(name),
        },
      });
    } catch (error) {
      this.state.fatal = `${this.describe(error)} The page cannot work without it; try a normal (not private) window.`;
      this.render();
      return;
    }
    this.current = session;
    this.state.tokenSet = session.token !== null;
    session.health.subscribe(() => {
      this.state.access = {
        read: session.health.accessFor('read'),
        write: session.health.accessFor('write'),
      };
      this.state.failures = {
        read: session.health.failureOf('read'),
        write: session.health.failureOf('write'),
      };
      this.render();
    });
    this.reach.subscribe((now, before) => {
      this.state.reachable = now;
      // The server answers again: send what waits now rather than at the next retry.
      if (now && before === false) void this.session()?.store.sync();
      this.render();
    });
    await this.refreshStatus();
    await this.refreshNames();
    const initial =
      new URLSearchParams(location.search).get('config') ?? readOpenConfig();
    if (initial !== null) await this.open(initial, { moveFocus: false });
    this.state.ready = true;
    document.body.dataset['ready'] = 'true';
    this.render();
    setInterval(() => void this.tick(), REFRESH_MS);
    document.addEventListener('visibilitychange', () => void this.tick());
  }

  // --- PageContext -------------------------------------------------------------------------------

  /** Renders at the next microtask, so many changes make one render. */
  render(): void {
    if (this.renderQueued) return;
    this.renderQueued = true;
    queueMicrotask(() => {
      this.renderQueued = false;
      render(appView(this.state, this), this.root);
      this.afterRender();
    });
  }

  focus(selector: string): void {
    this.focusTarget = selector;
  }

  announce(text: string): void {
    // The same words twice would not be read again: vary them invisibly.
    this.state.announcement =
      this.state.announcement === text ? `${text}\u00a0` : text;
    this.render();
  }

  ask(question: Question): Promise<boolean> {
    this.answerQuestion?.(false);
    this.state.question = question;
    this.render();
    return new Promise((resolve) => (this.answerQuestion = resolve));
  }

  session(): Session | null {
    return this.current;
  }

  describe(error: unknown): string {
    return describeFailure(error, { tokenSet: this.state.tokenSet });
  }

  // --- Actions: configs --------------------------------------------------------------------------

  openConfig(name: string): void {
    void this.open(name, { moveFocus: true });
  }

  openResult(configName: string, linkId: string): void {
    void this.open(configName, { moveFocus: true, target: linkId });
  }

  saveConfig(): void {
    void this.save();
  }

  deleteConfig(): void {
    void this.remove();
  }

  input<K extends FormName>(form: K, field: FieldOf<K>, value: string): void {
    this.forms.input(form, field, value);
  }

  submit(form: FormName): void {
    if (form === 'create') void this.create();
    else void this.forms.submit(form);
  }

  edit(form: SectionForm, key: string): void {
    this.forms.edit(form, key);
  }

  cancelEdit(form: SectionForm): void {
    this.forms.cancelEdit(form);
  }

  removeEntry(form: SectionForm, key: string): void {
    this.forms.removeEntry(form, key);
  }

  settingsInput(text: string): void {
    this.forms.settingsInput(text);
  }

  // --- Actions: tools, status, dialogs -----------------------------------------------------------

  queryInput(expression: string): void {
    this.tools.queryInput(expression);
  }

  runQuery(expression?: string): void {
    void this.tools.runQuery(expression);
  }

  searchInput(text: string): void {
    this.tools.searchInput(text);
  }

  searchMode(mode: SearchMode): void {
    this.tools.searchMode(mode);
  }

  runSearch(): void {
    void this.tools.runSearch();
  }

  retryDeadLetter(name: string): void {
    void this.guard(() => this.current?.store.retryDeadLetter(name));
  }

  discardDeadLetter(name: string): void {
    void this.guard(() => this.current?.store.discardDeadLetter(name));
  }

  openSettings(): void {
    const dialog = document.getElementById('settings-dialog');
    if (!(dialog instanceof HTMLDialogElement) || dialog.open) return;
    const input = document.getElementById('token-input');
    if (input instanceof HTMLInputElement) input.value = '';
    dialog.showModal();
  }

  saveToken(token: string): void {
    const session = this.current;
    if (!session) return;
    session.setToken(token);
    this.state.tokenSet = session.token !== null;
    this.announce(
      this.state.tokenSet ? 'The token is saved.' : 'The token is forgotten.',
    );
    void this.afterTokenChange();
  }

  answer(confirmed: boolean): void {
    const resolve = this.answerQuestion;
    this.answerQuestion = null;
    this.state.question = null;
    this.render();
    resolve?.(confirmed);
  }

  // --- Internals ---------------------------------------------------------------------------------

  private afterRender(): void {
    const dialog = document.getElementById('question-dialog');
    if (
      dialog instanceof HTMLDialogElement &&
      this.state.question !== null &&
      !dialog.open
    )
      dialog.showModal();
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

  private setOnline(): void {
    this.state.online = navigator.onLine;
    this.render();
  }

  /** Runs store work, showing a local failure in the status instead of throwing. */
  private async guard(work: () => Promise<unknown> | undefined): Promise<void> {
    try {
      await work();
      this.state.pageProblem = null;
    } catch (error) {
      this.state.pageProblem = this.describe(error);
    }
    this.render();
  }

  private async refreshStatus(): Promise<void> {
    const session = this.current;
    if (!session) return;
    this.state.hybrid = session.store.getStatus();
    try {
      const [letters, pending] = await Promise.all([
        session.store.deadLetters(),
        session.pendingWrites(),
      ]);
      this.state.deadLetters = letters;
      this.pending = pending;
      this.state.configs = this.state.configs.map((item) => ({
        ...item,
        pending: pending.get(item.name) === 'save',
      }));
    } catch (error) {
      this.state.pageProblem = this.describe(error);
    }
    this.render();
  }

  /**
   * Lists the configs: those in this browser and on the server (the hybrid store's list), plus the
   * names the server listed last when it cannot answer now, each marked with where it is kept.
   */
  private async refreshNames(): Promise<void> {
    const session = this.current;
    if (!session) return;
    await this.guard(async () => {
      const before = session.health.serverNames;
      const all = await session.store.list();
      const [local, pending] = await Promise.all([
        session.localNames(),
        session.pendingWrites(),
      ]);
      let server = session.health.serverNames;
      if (server !== null && server !== before) writeServerNames(server);
      server ??= readServerNames();
      this.pending = pending;
      const onServer = server === null ? null : new Set(server);
      const inBrowser = new Set(local);
      const names = new Set([...all, ...(server ?? [])]);
      for (const [name, op] of pending) if (op === 'remove') names.delete(name);
      this.state.configs = sortNames(names).map((name) => ({
        name,
        local: inBrowser.has(name),
        server: onServer === null ? null : onServer.has(name),
        pending: pending.get(name) === 'save',
      }));
    });
  }

  private async tick(): Promise<void> {
    if (document.hidden || !this.current) return;
    await this.refreshNames();
    const open = this.state.open;
    if (open !== null && !open.dirty)
      await this.guard(() => this.current?.store.loadEntry(open.name));
    else if (open === null && this.wanted !== null && this.state.reachable)
      await this.open(this.wanted, { moveFocus: false });
  }

  private async afterTokenChange(): Promise<void> {
    await this.refreshNames();
    if (this.state.open === null && this.wanted !== null)
      await this.open(this.wanted, { moveFocus: false });
  }

  /** Asks before unsaved edits are dropped; answers whether to go on. */
  private async mayLeave(): Promise<boolean> {
    const open = this.state.open;
    if (!open?.dirty) return true;
    return this.ask({
      title: `Discard the unsaved edits to “${open.name}”?`,
      body: 'Your edits to this config are not saved. Going on discards them; “Keep editing” lets you save them first.',
      confirm: 'Discard edits',
      cancel: 'Keep editing',
      danger: true,
    });
  }

  private async open(
    name: string,
    options: { moveFocus: boolean; target?: string; asked?: boolean },
  ): Promise<void> {
    const session = this.current;
    if (!session) return;
    const { state } = this;
    const target = options.target ?? null;
    if (state.open?.name === name) {
      state.open.targetLinkId = target;
      this.focus(
        target === null
          ? '#editor-heading'
          : `#editor [data-link-id="${CSS.escape(target)}"]`,
      );
      this.render();
      return;
    }
    if (!options.asked && !(await this.mayLeave())) return;
    const run = ++this.openRun;
    let config: LinkConfig | null;
    try {
      config = await session.store.load(name);
    } catch (error) {
      if (run === this.openRun) this.close(this.describe(error));
      return;
    }
    if (run !== this.openRun) return;
    if (config === null) {
      this.cannotOpen(name);
      return;
    }
    this.wanted = null;
    state.open = {
      name,
      draft: structuredClone(config),
      dirty: false,
      settingsText: settingsText(config),
      settingsProblem: null,
      saveProblem: null,
      remoteChanged: false,
      targetLinkId: target,
    };
    state.link = emptyForm(NO_LINK);
    state.macro = emptyForm(NO_MACRO);
    state.pattern = emptyForm(NO_PATTERN);
    if (state.query.outcome?.kind === 'results') state.query.outcome = null;
    writeOpenConfig(name);
    history.replaceState(null, '', `?config=${encodeURIComponent(name)}`);
    if (target !== null)
      this.focus(`#editor [data-link-id="${CSS.escape(target)}"]`);
    else if (options.moveFocus) this.focus('#editor-heading');
    this.render();
    // Opening may have fetched it from the server into this browser: update its marker.
    void this.refreshNames();
  }

  /** Says why `name` cannot be opened; remembers it when it may open later. */
  private cannotOpen(name: string): void {
    const item = this.state.configs.find((config) => config.name === name);
    const away = !this.state.online || this.state.reachable === false;
    const access = this.state.access.read;
    if (access === ACCESS.needsToken || access === ACCESS.tokenRefused) {
      this.wanted = name;
      this.close(
        `“${name}” cannot be opened yet: the server needs a valid token (see Settings).`,
        { forget: false },
      );
    } else if (away && item && !item.local) {
      this.wanted = name;
      this.close(
        `“${name}” is kept on the server only, and the server cannot be reached now. It opens once the server is back.`,
        { forget: false },
      );
    } else {
      this.close(
        `Config “${name}” could not be found in this browser or on the server.`,
      );
    }
  }

  private close(message: string, options = { forget: true }): void {
    this.state.open = null;
    this.state.editorMessage = message;
    if (options.forget) {
      writeOpenConfig(null);
      history.replaceState(null, '', location.pathname);
    }
    this.render();
  }

  private async create(): Promise<void> {
    const session = this.current;
    const form = this.state.create;
    const name = form.values.name.trim();
    form.submitted = true;
    if (!session || checkConfigName(name) !== null) {
      this.focus('#new-config-name');
      this.render();
      return;
    }
    if (!(await this.mayLeave())) return;
    const exists = this.state.configs.some((item) => item.name === name);
    if (!exists) {
      try {
        await session.store.save(name, { allLinks: {} });
      } catch (error) {
        this.state.pageProblem = this.describe(error);
        this.render();
        return;
      }
      await this.refreshNames();
    }
    this.state.create = emptyForm({ name: '' });
    await this.open(name, { moveFocus: false, asked: true });
    if (this.state.open?.name === name) {
      this.focus(exists ? '#editor-heading' : '#link-id');
      this.announce(
        exists
          ? `“${name}” exists already: it is open now.`
          : `Created “${name}”. Add its first link.`,
      );
    }
  }

  private async save(): Promise<void> {
    const session = this.current;
    const open = this.state.open;
    if (!session || !open) return;
    if (open.settingsProblem !== null) {
      open.saveProblem = `Not saved: the settings are not valid. ${open.settingsProblem}`;
      this.focus('#settings-json');
      this.render();
      return;
    }
    const valid = validateLinkConfig(open.draft);
    if (!valid.ok) {
      open.saveProblem = `Not saved: ${valid.error}.`;
      this.render();
      return;
    }
    const saved = open.draft;
    try {
      await session.store.save(open.name, saved);
    } catch (error) {
      open.saveProblem = `Not saved: ${this.describe(error)}`;
      this.render();
      return;
    }
    // Edits made while saving stay unsaved.
    if (open.draft === saved) open.dirty = false;
    open.saveProblem = null;
    open.remoteChanged = false;
    this.announce(`Saved “${open.name}”.`);
    await this.refreshStatus();
    await this.refreshNames();
  }

  private async remove(): Promise<void> {
    const session = this.current;
    const open = this.state.open;
    if (!session || !open) return;
    const count = Object.keys(open.draft.allLinks).length;
    const confirmed = await this.ask({
      title: `Delete the config “${open.name}”?`,
      body: `This deletes “${open.name}” and its ${count} ${count === 1 ? 'link' : 'links'}, in this browser and on the server.`,
      confirm: 'Delete config',
      cancel: 'Keep it',
      danger: true,
    });
    if (!confirmed || this.state.open !== open) return;
    try {
      await session.store.remove(open.name);
    } catch (error) {
      open.saveProblem = `Not deleted: ${this.describe(error)}`;
      this.render();
      return;
    }
    this.close(`Config “${open.name}” was deleted.`);
    this.focus('#editor-heading');
    this.announce(`Deleted “${open.name}”.`);
    await this.refreshNames();
  }

  /** A background refresh brought a newer version of `name`. */
  private async remoteChanged(name: string): Promise<void> {
    const open = this.state.open;
    if (!this.current || open?.name !== name) return;
    if (open.dirty) {
      open.remoteChanged = true;
      this.render();
      return;
    }
    const config = await this.current.store.load(name);
    if (config === null || this.state.open !== open || open.dirty) return;
    open.draft = structuredClone(config);
    open.settingsText = settingsText(config);
    const editing = this.state.link.editing;
    if (editing !== null && !Object.hasOwn(config.allLinks, editing))
      this.state.link = emptyForm(NO_LINK);
    this.announce(`“${name}” was updated from the server.`);
  }
}
