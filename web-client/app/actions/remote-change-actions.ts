/**
 * What happens when the open config changes elsewhere (on the server, in another tab): without unsaved
 * edits the editor shows the new version at once; with them, the other version reaches the draft
 * through the shared three-way merge (`shared/sync`) over the version the draft started from, which the
 * store keeps and merges over (`HybridStore.mergeIntoEdit`; the page holds no copy of it), the same
 * merge the store runs for an offline write. What merges cleanly is merged and said so, naming
 * the links and fields; where both changed the same thing, the conflict rows show both sides and Save
 * waits until each is settled. A removal elsewhere also waits for an answer before Save.
 */
import { changedPaths, resolveConflicts, sameValue } from '@linkconfig/shared';
import type { LinkConfig } from '@linkconfig/shared';
import type { MergeReport } from '@linkconfig/web-client';
import type { RemoteChangeAnswer } from '../views/actions.js';
import { settingsText } from '../model/config-draft.js';
import { describePaths } from '../model/merge-words.js';
import type { PageContext } from './page-context.js';
import { emptyForm, NO_LINK } from '../state/state.js';
import type { OpenConfig } from '../state/state.js';

/** The page's answers to changes made elsewhere to the open config. */
export class RemoteChangeActions {
  constructor(
    private readonly page: PageContext,
    /** Closes the open config, saying why. */
    private readonly close: (message: string) => void,
  ) {}

  /**
   * Config `name` may have changed elsewhere (the change feed, a refresh, a conflict settled, another
   * tab). The open one shows the new version at once when it has no unsaved edits; with them, the
   * edits stay and the notice offers the other version. A removal is said either way.
   */
  async remoteChanged(name: string): Promise<void> {
    const open = this.page.state.open;
    const session = this.page.session();
    if (!session || open?.name !== name) return;
    let config: LinkConfig | null;
    try {
      config = await session.store.load(name);
    } catch {
      return; // This browser's storage failed; the next change or open tries again.
    }
    if (this.page.state.open !== open) return;
    if (config === null) {
      if (open.remote === 'removed') return;
      open.remote = 'removed';
      open.incoming = null;
      this.page.announce(
        `“${name}” was deleted elsewhere. Keep yours, or close it.`,
      );
      return;
    }
    if (sameValue(config, session.store.editBase(name))) {
      // Back to the version shown (a removal undone, say): nothing to choose any more.
      open.remote = null;
      open.incoming = null;
      return;
    }
    if (open.dirty) {
      this.mergeIncoming(open, config);
      return;
    }
    showInEditor(this.page, open, config);
    this.page.announce(`“${name}” was updated from the server.`);
  }

  /** Answers the notice about a change made elsewhere to the open config. */
  async answerRemote(answer: RemoteChangeAnswer): Promise<void> {
    const open = this.page.state.open;
    const session = this.page.session();
    if (!session || !open) return;
    if (typeof answer === 'object') {
      // Each conflict settled as picked; every other change of theirs is merged in already.
      const incoming = this.page.raw(open.incoming);
      if (open.remote !== 'changed' || incoming === null) return;
      let settled: LinkConfig | null;
      try {
        settled = resolveConflicts<LinkConfig>(incoming, answer.resolutions);
      } catch (error) {
        open.saveProblem = this.page.describe(error);
        return;
      }
      if (settled === null) return;
      void session.store.settleEdit(open.name, incoming.remote);
      this.takeMerge(open, settled);
      this.page.focus('[data-testid="save-config"]');
      this.page.announce(
        `Your choices for “${open.name}” are in the draft: “Save config” saves them.`,
      );
      return;
    }
    if (answer === 'keep-mine') {
      // A removed config is created again by the next save: say that it is not saved anywhere.
      if (open.remote === 'removed') open.dirty = true;
      else {
        // Yours where both changed the same thing; every other change of theirs is merged in, so the
        // save replaces nothing else of the other version.
        const incoming = this.page.raw(open.incoming);
        if (incoming !== null && incoming.merged !== null) {
          void session.store.settleEdit(open.name, incoming.remote);
          this.takeMerge(open, incoming.merged);
        }
      }
      open.remote = null;
      open.incoming = null;
      open.saveProblem = null;
      this.page.focus('[data-testid="save-config"]');
      this.page.announce(
        `Your edits to “${open.name}” stay where both changed the same thing; the other changes are merged in.`,
      );
      return;
    }
    let config: LinkConfig | null = null;
    if (answer === 'show-theirs') {
      try {
        config = await session.store.load(open.name);
      } catch (error) {
        open.saveProblem = this.page.describe(error);
        return;
      }
    }
    if (this.page.state.open !== open) return;
    if (config === null) {
      this.close(`Config “${open.name}” was deleted elsewhere.`);
      this.page.focus('#editor-heading');
      return;
    }
    showInEditor(this.page, open, config);
    this.page.focus('#editor-heading');
    this.page.announce(`Showing the other version of “${open.name}”.`);
  }

  /**
   * A save of `name` met a newer server version and the store merged the two without asking: the open
   * config shows the merge (it arrives as a change), and the page says so.
   */
  mergedOnSave(name: string, report: MergeReport): void {
    if (report.appliedRemote.length === 0) return;
    this.page.state.mergedNote = `“${name}” was changed elsewhere meanwhile: those changes were merged with yours and saved.`;
    this.page.announce(this.page.state.mergedNote);
  }

  /**
   * Merges `remote` into the unsaved draft over the version the draft started from (the store merges:
   * it keeps that version). A clean merge becomes the draft (still unsaved; the store now bases it on
   * `remote`) and is said, naming what came in; true conflicts wait in `open.incoming` for the person,
   * and Save waits with them.
   */
  mergeIncoming(open: OpenConfig, remote: LinkConfig): void {
    const store = this.page.session()?.store;
    if (store === undefined) return;
    const base = store.editBase(open.name) ?? null;
    const result = store.mergeIntoEdit(
      open.name,
      this.page.raw(open.draft),
      remote,
    );
    if (result.merged !== null && result.conflicts.length === 0) {
      this.takeMerge(open, result.merged);
      const what = describePaths(changedPaths(base, remote));
      this.page.state.mergedNote = `“${open.name}” was changed elsewhere meanwhile (${what}): those changes were merged into your unsaved edits.`;
      this.page.announce(this.page.state.mergedNote);
      return;
    }
    const first = open.remote !== 'changed';
    open.remote = 'changed';
    open.incoming = { remote, ...result };
    if (first)
      this.page.announce(
        `“${open.name}” changed on the server while you were editing, in places you edited too: choose per field before saving.`,
      );
  }

  /** Makes `merged` the unsaved draft (the store moved its base to the version merged in). */
  private takeMerge(open: OpenConfig, merged: LinkConfig): void {
    open.draft = structuredClone(this.page.raw(merged));
    open.remote = null;
    open.incoming = null;
    open.saveProblem = null;
    open.settingsText = settingsText(merged);
    open.settingsProblem = null;
    const editing = this.page.state.link.editing;
    if (editing !== null && !Object.hasOwn(merged.allLinks, editing))
      this.page.state.link = emptyForm(NO_LINK);
    this.page.recheckExpression();
  }
}

/**
 * Puts `config` in the editor in place of the draft (a saved or another version); the store's edit
 * now starts from it.
 */
export function showInEditor(
  page: PageContext,
  open: OpenConfig,
  config: LinkConfig,
): void {
  void page.session()?.store.settleEdit(open.name, config);
  open.draft = structuredClone(config);
  open.dirty = false;
  open.remote = null;
  open.incoming = null;
  open.settingsText = settingsText(config);
  open.settingsProblem = null;
  const editing = page.state.link.editing;
  if (editing !== null && !Object.hasOwn(config.allLinks, editing))
    page.state.link = emptyForm(NO_LINK);
  page.recheckExpression();
}
