/**
 * The History panel's actions: the open config's revisions (newest first, a page at a time), one
 * revision shown read-only with what it changed against the one before and what differs from the
 * newest (both compared here, from the revisions the page holds), restoring a whole version or one link,
 * and the "Recently deleted" list with Undelete. History is kept on the server only: the hybrid store
 * refuses at once with a `HistoryUnavailableError` while offline, and the panel says so.
 */
import { compareConfigs } from '@linkconfig/shared';
import { HistoryUnavailableError } from '@linkconfig/web-client';
import type { PageContext } from './page-context.js';
import { initialHistory } from '../state/history-state.js';

/** How many revisions a page of the panel lists. */
const PAGE = 50;

/** What the page does after a restore: shows the config anew (`open`: it was not the open one). */
export interface HistoryHooks {
  /** The open config `name` was restored on the server: show the stored version in the editor. */
  reload(name: string): Promise<void>;
  /** Opens config `name` (after an undelete). */
  open(name: string): Promise<void>;
}

const OFFLINE =
  'History is kept on the server, which cannot be reached now. It shows again once the server is back.';

export class HistoryActions {
  constructor(
    private readonly page: PageContext,
    private readonly hooks: HistoryHooks,
  ) {}

  private get state() {
    return this.page.state.history;
  }

  /** Opens the panel for the open config and lists its newest revisions. */
  async openPanel(): Promise<void> {
    const name = this.page.state.open?.name;
    if (name === undefined) return;
    const deleted = this.state;
    this.page.state.history = {
      ...initialHistory(),
      deleted: deleted.deleted,
      deletedProblem: deleted.deletedProblem,
      name,
    };
    this.page.focus('#history-heading');
    await this.load(name);
  }

  closePanel(): void {
    this.state.name = null;
    this.state.shown = null;
    this.page.focus('[data-testid="open-history"]');
  }

  /** The server answers again: an open panel that could not list anything tries once more. */
  async serverBack(): Promise<void> {
    const name = this.state.name;
    if (name === null || this.state.revisions.length > 0) return;
    this.state.problem = null;
    await this.load(name);
  }

  /** Lists the next page of older revisions. */
  async more(): Promise<void> {
    const { name, next } = this.state;
    if (name === null || next === null) return;
    await this.load(name, next);
  }

  /**
   * Shows revision `rev` read-only: what it changed against the revision before it, and what differs
   * from the newest version. The page compares the revisions itself; it asks the server for no diff.
   */
  async view(rev: number): Promise<void> {
    const session = this.page.session();
    const name = this.state.name;
    if (!session || name === null) return;
    const { revisions } = this.state;
    const newest = revisions[0]?.rev ?? rev;
    // The one listed below it (older), else the number before, while there is one.
    const at = revisions.findIndex((entry) => entry.rev === rev);
    const before = revisions[at + 1]?.rev ?? (rev > 1 ? rev - 1 : null);
    this.state.problem = null;
    try {
      const [revision, newestRevision, previous] = await Promise.all([
        session.store.loadRevision(name, rev),
        rev === newest ? null : session.store.loadRevision(name, newest),
        before === null ? null : session.store.loadRevision(name, before),
      ]);
      const current = newestRevision?.config ?? null;
      if (this.state.name !== name) return;
      if (revision === null) {
        this.state.problem = `Revision ${rev} has no content (it is a deletion, or it was pruned).`;
        return;
      }
      this.state.shown = {
        rev,
        revision,
        previous:
          previous === null || before === null
            ? null
            : {
                rev: before,
                changes: compareConfigs(previous.config, revision.config),
              },
        current,
        diff: rev === newest ? null : compareConfigs(revision.config, current),
      };
      this.page.focus('#revision-heading');
    } catch (error) {
      this.fail(error);
    }
  }

  /** Stores revision `rev` again as the newest version (only `links` of it, when given). */
  async restore(rev: number, links?: string[]): Promise<void> {
    const session = this.page.session();
    const name = this.state.name;
    const open = this.page.state.open;
    if (!session || name === null || this.state.busy) return;
    if (open?.name === name && open.dirty) {
      this.state.problem =
        'This config has unsaved edits: save them or revert to saved before restoring.';
      this.page.announce(this.state.problem);
      return;
    }
    this.state.busy = true;
    this.state.problem = null;
    try {
      const ifMatch = this.state.revisions[0]?.etag ?? undefined;
      const result = await session.store.restore(name, rev, {
        ...(links === undefined ? {} : { links }),
        ...(ifMatch === undefined ? {} : { ifMatch }),
      });
      await this.hooks.reload(name);
      const what =
        links === undefined
          ? `Restored revision ${rev} of “${name}”`
          : `Restored the link “${links.join('”, “')}” as in revision ${rev}`;
      this.page.announce(`${what}: it is now revision ${result.rev}.`);
      this.state.shown = null;
      await this.load(name);
      this.page.focus('#history-heading');
    } catch (error) {
      this.fail(error, 'Not restored: ');
    } finally {
      this.state.busy = false;
    }
  }

  /** Lists the configs deleted on the server and still restorable. */
  async showDeleted(): Promise<void> {
    const session = this.page.session();
    if (!session) return;
    this.state.deletedLoading = true;
    this.state.deletedProblem = null;
    try {
      this.state.deleted = (await session.store.listDeleted()).sort();
      this.page.announce(
        this.state.deleted.length === 0
          ? 'No recently deleted configs.'
          : `${this.state.deleted.length} recently deleted ${this.state.deleted.length === 1 ? 'config' : 'configs'}.`,
      );
    } catch (error) {
      this.state.deleted = null;
      this.state.deletedProblem = this.words(error);
    } finally {
      this.state.deletedLoading = false;
    }
  }

  /** Restores deleted config `name` as its last stored version, then opens it. */
  async undelete(name: string): Promise<void> {
    const session = this.page.session();
    if (!session) return;
    this.state.deletedProblem = null;
    try {
      const history = await session.store.history(name, { limit: 10 });
      const last = history?.revisions.find((entry) => entry.op !== 'delete');
      if (last === undefined) {
        this.state.deletedProblem = `“${name}” has no version left to restore.`;
        return;
      }
      await session.store.restore(name, last.rev);
    } catch (error) {
      this.state.deletedProblem = `Not undeleted: ${this.words(error)}`;
      return;
    }
    this.state.deleted = (this.state.deleted ?? []).filter((n) => n !== name);
    await this.page.refreshNames();
    await this.hooks.open(name);
    this.page.announce(`Undeleted “${name}”.`);
  }

  /** Lists a page of revisions of `name` (the first page replaces the list). */
  private async load(name: string, before?: number): Promise<void> {
    const session = this.page.session();
    if (!session) return;
    this.state.loading = true;
    try {
      const page = await session.store.history(name, {
        limit: PAGE,
        ...(before === undefined ? {} : { before }),
      });
      if (this.state.name !== name) return;
      if (page === null) {
        this.state.revisions = [];
        this.state.next = null;
        this.state.problem = `“${name}” has no history on the server yet: it starts once the config reaches the server.`;
        return;
      }
      this.state.revisions =
        before === undefined
          ? page.revisions
          : [...this.state.revisions, ...page.revisions];
      this.state.next = page.next;
    } catch (error) {
      if (this.state.name === name) this.fail(error);
    } finally {
      this.state.loading = false;
    }
  }

  private fail(error: unknown, prefix = ''): void {
    this.state.problem = `${prefix}${this.words(error)}`;
    this.page.announce(this.state.problem);
  }

  private words(error: unknown): string {
    return error instanceof HistoryUnavailableError
      ? OFFLINE
      : this.page.describe(error);
  }
}
