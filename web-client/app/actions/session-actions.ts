/**
 * What the page shows of the session's store: its status (pending, refused and conflicting writes),
 * the list of configs with their markers, the conflicts to settle, the token, and the background
 * refresh while live updates are not connected. The status comes from the store's published per-name
 * facts; the list is made again shortly after anything that changes it.
 */
import type { ConflictChoice } from '@linkconfig/web-client';
import type { ConflictAnswer } from '../views/actions.js';
import type { ConfigActions } from './config-actions.js';
import { mergeConfigs } from '../model/config-diff.js';
import { mayRead } from '../model/key-access.js';
import { configPlaces, markersFromStatus } from '../state/config-places.js';
import type { PageContext } from './page-context.js';
import {
  readServerNames,
  writeServerNames,
  writeTokenReadOnly,
} from '../session/preferences.js';
import {
  conflictsChanged,
  listChanged,
  pendingWrites,
  refusedWrites,
} from '../state/sync-status.js';
import { conflictHeadingId } from '../views/view-conflicts.js';

/** Changes that arrive together (a reconnect replays several) make one new list of names. */
const NAMES_DELAY_MS = 150;

/** The session's part of the page. */
export class SessionActions {
  private namesTimer: ReturnType<typeof setTimeout> | null = null;

  constructor(
    private readonly page: PageContext,
    private readonly configs: ConfigActions,
  ) {}

  /** Takes in the store's status: markers, refused writes, and the conflicts when theirs changed. */
  async refreshStatus(): Promise<void> {
    const session = this.page.session();
    if (!session) return;
    const { state } = this.page;
    const before = this.page.raw(state.hybrid);
    const status = session.store.getStatus();
    state.hybrid = status;
    state.clock = Date.now();
    // Everything that waited reached the server (nothing refused, nothing in conflict): say so.
    if (
      before.pending > 0 &&
      status.pending === 0 &&
      status.deadLetters <= before.deadLetters &&
      status.conflicts <= before.conflicts
    )
      this.page.announce('Saved to the server.');
    if (status.live === 'connected' && before.live !== 'connected') {
      // Live again: what changed meanwhile is checked by the store; the names are the page's part.
      this.scheduleNames();
      void this.configs.retryWanted();
    } else if (listChanged(before, status)) {
      // A write was refused or met another version, or a removal came or went: list again.
      this.scheduleNames();
    }
    state.deadLetters = refusedWrites(status);
    // Saves waiting or delivered: the markers follow from the status, without asking for a list.
    state.configs = markersFromStatus(state.configs, before, status);
    if (conflictsChanged(before, status)) await this.refreshConflicts();
  }

  /** Lists the conflicts: their two sides are not in the status, the store lists them. */
  async refreshConflicts(): Promise<void> {
    const session = this.page.session();
    if (!session) return;
    try {
      const conflicts = await session.store.conflicts();
      this.announceConflicts(conflicts.map((conflict) => conflict.name));
      this.page.state.conflicts = conflicts;
    } catch (error) {
      this.page.state.pageProblem = this.page.describe(error);
    }
  }

  /**
   * Lists the configs: those in this browser and on the server (the hybrid store's list), plus the
   * names the server listed last when it cannot answer now, each marked with where it is kept.
   */
  async refreshNames(): Promise<void> {
    const session = this.page.session();
    if (!session) return;
    await this.guard(async () => {
      const before = session.store.serverNames();
      const all = await session.store.list();
      const local = await session.localNames();
      const server = session.store.serverNames();
      if (server !== null && server !== before) writeServerNames(server);
      const places = configPlaces({
        listed: all,
        local,
        server: server ?? readServerNames(),
        pending: pendingWrites(session.store.getStatus()),
      });
      // What this browser kept under another key and the current one may not read is not listed
      // (the server's own list is filtered already); changes waiting to be sent stay in view.
      const grant = this.page.state.grant;
      this.page.state.configs =
        grant === null
          ? places
          : places.filter((item) => item.pending || mayRead(grant, item.name));
    });
  }

  /** Config `name` may have changed elsewhere: the open one follows, and the list is made again. */
  changedElsewhere(name: string): void {
    void this.configs.remoteChanged(name);
    this.scheduleNames();
  }

  retryDeadLetter(name: string): void {
    void this.guard(() => this.page.session()?.store.retryDeadLetter(name));
  }

  discardDeadLetter(name: string): void {
    void this.guard(() => this.page.session()?.store.discardDeadLetter(name));
  }

  saveToken(token: string): void {
    const session = this.page.session();
    if (!session) return;
    session.setToken(token);
    const { state } = this.page;
    // What the server said of the old token says nothing of the new one.
    state.grant = null;
    writeTokenReadOnly(false);
    state.readOnlyRemembered = false;
    state.tokenSet = session.token !== null;
    this.page.announce(
      state.tokenSet ? 'The token is saved.' : 'The token is forgotten.',
    );
    void this.afterTokenChange();
  }

  /** Ends a conflict as the person chose, then moves focus to the next one (or the config). */
  async settleConflict(name: string, answer: ConflictAnswer): Promise<void> {
    const session = this.page.session();
    const { state } = this.page;
    const conflict = this.page
      .raw(state.conflicts)
      .find((c) => c.name === name);
    if (!session || !conflict) return;
    let choice: ConflictChoice = answer === 'merge' ? 'keep-local' : answer;
    if (answer === 'merge') {
      if (conflict.local === null || conflict.remote === null) return;
      choice = mergeConfigs(conflict.local, conflict.remote);
    }
    try {
      await session.store.resolveConflict(name, choice);
    } catch (error) {
      state.pageProblem = this.page.describe(error);
      return;
    }
    state.pageProblem = null;
    await this.refreshConflicts();
    const rest = state.conflicts.filter((c) => c.name !== name);
    this.page.focus(
      rest.length > 0 ? `#${conflictHeadingId(0)}` : '#editor-heading',
    );
    this.page.announce(
      answer === 'keep-local'
        ? `Kept your version of “${name}”; it is sent to the server.`
        : answer === 'take-remote'
          ? `Took the server’s version of “${name}”.`
          : typeof answer === 'object'
            ? `Merged “${name}” with your choices; the merge is sent to the server.`
            : `Merged both versions of “${name}”; the merge is sent to the server.`,
    );
    await this.refreshNames();
  }

  /** The fallback refresh, while live updates are not connected. */
  async tick(): Promise<void> {
    const session = this.page.session();
    const { state } = this.page;
    if (document.hidden || !session) return;
    if (state.hybrid.live === 'connected') return;
    await this.refreshNames();
    const open = state.open;
    if (open !== null && !open.dirty)
      await this.guard(() => this.page.session()?.store.loadEntry(open.name));
    else if (state.reachable) await this.configs.retryWanted();
  }

  /** Lists the configs again shortly (many reasons at once make one list). */
  scheduleNames(): void {
    if (this.namesTimer !== null) clearTimeout(this.namesTimer);
    this.namesTimer = setTimeout(() => {
      this.namesTimer = null;
      void this.refreshNames();
    }, NAMES_DELAY_MS);
  }

  /** Runs store work, showing a local failure in the status instead of throwing. */
  private async guard(work: () => Promise<unknown> | undefined): Promise<void> {
    try {
      await work();
      this.page.state.pageProblem = null;
    } catch (error) {
      this.page.state.pageProblem = this.page.describe(error);
    }
  }

  /** Says which configs newly wait for a choice between two versions (focus stays where it is). */
  private announceConflicts(names: string[]): void {
    const known = new Set(this.page.state.conflicts.map((c) => c.name));
    const fresh = names.filter((name) => !known.has(name));
    if (fresh.length === 0) return;
    this.page.announce(
      `${fresh.map((name) => `“${name}”`).join(', ')} changed here and on the server: choose which version to keep.`,
    );
  }

  private async afterTokenChange(): Promise<void> {
    await this.refreshNames();
    await this.configs.retryWanted();
  }
}
