/**
 * The page's controller: it owns the state, renders it with lit-html, and carries out what the views
 * ask (the {@link Actions}). Configs are read and written through the session's hybrid store, so the
 * page keeps working offline; forms and tools are handled by FormActions and ToolActions.
 *
 * Changes made elsewhere arrive through the store's live updates (the server's change feed) and from
 * other tabs; the page refreshes in the background on a timer only while live updates are not
 * connected. Conflicts the store finds are listed for the person to settle.
 */
import type { ConflictChoice } from '@linkconfig/web-client';
import { render } from 'lit-html';
import type {
  Actions,
  ConflictAnswer,
  FieldOf,
  FormName,
  RemoteChangeAnswer,
  SectionForm,
} from './actions.js';
import type { SearchMode } from './api.js';
import { ConfigActions } from './config-actions.js';
import { mergeConfigs } from './config-diff.js';
import { configPlaces } from './config-places.js';
import { FormActions } from './form-actions.js';
import type { PageContext } from './page-context.js';
import {
  readOpenConfig,
  readServerNames,
  writeServerNames,
} from './preferences.js';
import { describeFailure } from './problems.js';
import { Reachability } from '@linkconfig/web-client';
import { Session } from './session.js';
import { initialState } from './state.js';
import {
  conflictsChanged,
  pendingWrites,
  refusedWrites,
} from './sync-status.js';
import type { AppState, Question } from './state.js';
import { ToolActions } from './tool-actions.js';
import { appView } from './view-app.js';
import { conflictHeadingId } from './view-conflicts.js';

/**
 * How often the page refreshes the names and the open config in the background while live updates
 * are not connected (with them, changes arrive as they happen).
 */
const REFRESH_MS = 4000;
/** Changes that arrive together (a reconnect replays several) make one new list of names. */
const NAMES_DELAY_MS = 150;

/** The page. */
export class App implements Actions, PageContext {
  readonly state: AppState = initialState();
  private current: Session | null = null;
  private readonly reach = new Reachability();
  private readonly configs = new ConfigActions(this);
  private readonly forms = new FormActions(this);
  private readonly tools = new ToolActions(this);
  private renderQueued = false;
  private focusTarget: string | null = null;
  private answerQuestion: ((confirmed: boolean) => void) | null = null;
  private namesTimer: ReturnType<typeof setTimeout> | null = null;

  constructor(private readonly root: HTMLElement) {}

  /** Opens the stores, shows the names and the remembered config, then refreshes in the background. */
  async start(): Promise<void> {
    // The loading text of index.html makes way for the page.
    this.root.replaceChildren();
    this.render();
    addEventListener('online', () => {
      this.setOnline();
      if (this.state.query.check.kind === 'unavailable')
        this.tools.checkExpression();
    });
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
          changed: (name) => this.changedElsewhere(name),
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
      // The server answers again: send what waits now rather than at the next retry, and open the
      // config that was asked for while the server was away.
      if (now && before === false) {
        void this.session()?.store.sync();
        void this.configs.retryWanted();
      }
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

  recheckExpression(): void {
    this.tools.checkExpression();
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

  resolveConflict(name: string, answer: ConflictAnswer): void {
    void this.settleConflict(name, answer);
  }

  remoteChange(answer: RemoteChangeAnswer): void {
    void this.configs.answerRemote(answer);
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
    const before = this.state.hybrid;
    const status = session.store.getStatus();
    this.state.hybrid = status;
    if (status.live === 'connected' && before.live !== 'connected') {
      // Live again: what changed meanwhile is checked by the store; the names are the page's part.
      this.scheduleNames();
      void this.configs.retryWanted();
    } else if (
      status.pending !== before.pending ||
      status.deadLetters !== before.deadLetters ||
      status.conflicts !== before.conflicts
    ) {
      // A write reached the server, was refused or met another version: the list's markers change.
      this.scheduleNames();
    }
    this.state.deadLetters = refusedWrites(status);
    const pending = pendingWrites(status);
    this.state.configs = this.state.configs.map((item) => ({
      ...item,
      pending: pending.get(item.name) === 'save',
    }));
    if (conflictsChanged(before, status)) {
      try {
        // The two sides of each conflict are not in the status: the store lists them.
        const conflicts = await session.store.conflicts();
        this.announceConflicts(conflicts.map((conflict) => conflict.name));
        this.state.conflicts = conflicts;
      } catch (error) {
        this.state.pageProblem = this.describe(error);
      }
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
      const local = await session.localNames();
      const server = session.health.serverNames;
      if (server !== null && server !== before) writeServerNames(server);
      this.state.configs = configPlaces({
        listed: all,
        local,
        server: server ?? readServerNames(),
        pending: pendingWrites(session.store.getStatus()),
      });
    });
  }

  /** Says which configs newly wait for a choice between two versions (focus stays where it is). */
  private announceConflicts(names: string[]): void {
    const known = new Set(
      this.state.conflicts.map((conflict) => conflict.name),
    );
    const fresh = names.filter((name) => !known.has(name));
    if (fresh.length === 0) return;
    this.announce(
      `${fresh.map((name) => `“${name}”`).join(', ')} changed here and on the server: choose which version to keep.`,
    );
  }

  /** Ends a conflict as the person chose, then moves focus to the next one (or the config). */
  private async settleConflict(
    name: string,
    answer: ConflictAnswer,
  ): Promise<void> {
    const session = this.current;
    const conflict = this.state.conflicts.find((c) => c.name === name);
    if (!session || !conflict) return;
    let choice: ConflictChoice = answer === 'merge' ? 'keep-local' : answer;
    if (answer === 'merge') {
      if (conflict.local === null || conflict.remote === null) return;
      choice = mergeConfigs(conflict.local, conflict.remote);
    }
    try {
      await session.store.resolveConflict(name, choice);
    } catch (error) {
      this.state.pageProblem = this.describe(error);
      this.render();
      return;
    }
    session.stored(name);
    this.state.pageProblem = null;
    await this.refreshStatus();
    const rest = this.state.conflicts.filter((c) => c.name !== name);
    this.focus(
      rest.length > 0 ? `#${conflictHeadingId(0)}` : '#editor-heading',
    );
    this.announce(
      answer === 'keep-local'
        ? `Kept your version of “${name}”; it is sent to the server.`
        : answer === 'take-remote'
          ? `Took the server’s version of “${name}”.`
          : `Merged both versions of “${name}”; the merge is sent to the server.`,
    );
    await this.refreshNames();
  }

  /** Config `name` may have changed elsewhere: the open one follows, and the list is made again. */
  private changedElsewhere(name: string): void {
    void this.configs.remoteChanged(name);
    this.scheduleNames();
  }

  /** Lists the configs again shortly (many reasons at once make one list). */
  private scheduleNames(): void {
    if (this.namesTimer !== null) clearTimeout(this.namesTimer);
    this.namesTimer = setTimeout(() => {
      this.namesTimer = null;
      void this.refreshNames();
    }, NAMES_DELAY_MS);
  }

  /** The fallback refresh, while live updates are not connected. */
  private async tick(): Promise<void> {
    if (document.hidden || !this.current) return;
    if (this.state.hybrid.live === 'connected') return;
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
