/**
 * The page's controller: it owns the state, renders it with lit-html, and carries out what the views
 * ask (the {@link Actions}). Configs are read and written through the session's hybrid store, so the
 * page keeps working offline; forms and tools are handled by FormActions and ToolActions.
 */
import { render } from 'lit-html';
import type { Actions, FieldOf, FormName, SectionForm } from './actions.js';
import type { SearchMode } from './api.js';
import { ConfigActions } from './config-actions.js';
import { configPlaces } from './config-places.js';
import { FormActions } from './form-actions.js';
import type { PageContext } from './page-context.js';
import {
  readOpenConfig,
  readServerNames,
  writeServerNames,
} from './preferences.js';
import { describeFailure } from './problems.js';
import { Reachability } from './reachability.js';
import { Session } from './session.js';
import type { PendingWrites } from './session.js';
import { initialState } from './state.js';
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
  private readonly configs = new ConfigActions(this);
  private readonly forms = new FormActions(this);
  private readonly tools = new ToolActions(this);
  private pending: PendingWrites = new Map();
  private renderQueued = false;
  private focusTarget: string | null = null;
  private answerQuestion: ((confirmed: boolean) => void) | null = null;

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
          changed: (name) => void this.configs.remoteChanged(name),
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
    if (initial !== null)
      await this.configs.open(initial, { moveFocus: false });
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
    void this.configs.open(name, { moveFocus: true });
  }

  openResult(configName: string, linkId: string): void {
    void this.configs.open(configName, { moveFocus: true, target: linkId });
  }

  saveConfig(): void {
    void this.configs.save();
  }

  deleteConfig(): void {
    void this.configs.remove();
  }

  input<K extends FormName>(form: K, field: FieldOf<K>, value: string): void {
    this.forms.input(form, field, value);
  }

  submit(form: FormName): void {
    if (form === 'create') void this.configs.create();
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

  async refreshStatus(): Promise<void> {
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
  async refreshNames(): Promise<void> {
    const session = this.current;
    if (!session) return;
    await this.guard(async () => {
      const before = session.health.serverNames;
      const all = await session.store.list();
      const [local, pending] = await Promise.all([
        session.localNames(),
        session.pendingWrites(),
      ]);
      const server = session.health.serverNames;
      if (server !== null && server !== before) writeServerNames(server);
      this.pending = pending;
      this.state.configs = configPlaces({
        listed: all,
        local,
        server: server ?? readServerNames(),
        pending,
      });
    });
  }

  private async tick(): Promise<void> {
    if (document.hidden || !this.current) return;
    await this.refreshNames();
    const open = this.state.open;
    if (open !== null && !open.dirty)
      await this.guard(() => this.current?.store.loadEntry(open.name));
    else if (this.state.reachable) await this.configs.retryWanted();
  }

  private async afterTokenChange(): Promise<void> {
    await this.refreshNames();
    await this.configs.retryWanted();
  }
}
