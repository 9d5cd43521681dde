/**
 * What happens when the open config changes elsewhere (on the server, in another tab): without unsaved
 * edits the editor shows the new version at once; with them, the other version's changes are merged
 * into the edits (three ways, over the version the draft was opened from), and only when both changed
 * the same thing does a notice ask. Unsaved edits are never dropped without asking, and nobody else's
 * change is either: "Keep mine" keeps the edits only where both changed the same thing.
 */
import { sameValue, threeWayMerge } from '@linkconfig/shared';
import type { LinkConfig } from '@linkconfig/shared';
import type { MergeReport } from '@linkconfig/web-client';
import type { RemoteChangeAnswer } from '../views/actions.js';
import { settingsText } from '../model/config-draft.js';
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
      this.page.announce(
        `“${name}” was deleted elsewhere. Keep yours, or close it.`,
      );
      return;
    }
    if (sameValue(config, open.base)) {
      // Back to the version shown (a removal undone, say): nothing to choose any more.
      if (open.remote !== null && !open.dirty) open.remote = null;
      return;
    }
    if (open.dirty) {
      if (this.mergeInto(open, config)) {
        this.page.state.mergedNote = `“${name}” was changed elsewhere meanwhile: those changes were merged into your unsaved edits.`;
        this.page.announce(this.page.state.mergedNote);
        return;
      }
      const first = open.remote !== 'changed';
      open.remote = 'changed';
      if (first)
        this.page.announce(
          `“${name}” changed on the server while you were editing. Show theirs, or keep yours.`,
        );
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
    if (answer === 'keep-mine') {
      // A removed config is created again by the next save: say that it is not saved anywhere.
      if (open.remote === 'removed') open.dirty = true;
      else {
        // Yours where both changed the same thing; every other change of theirs is merged in, so the
        // save replaces nothing else of the other version.
        const current = await session.store.load(open.name).catch(() => null);
        if (this.page.state.open !== open) return;
        if (current !== null) this.mergeInto(open, current, { keepMine: true });
      }
      if (this.page.state.open !== open) return;
      open.remote = null;
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
   * Merges `remote` into the unsaved draft over the version the draft started from; answers whether it
   * did. Clean merges only, unless `keepMine` (then the draft wins where both changed the same thing).
   * The draft is then based on `remote`, and stays unsaved.
   */
  private mergeInto(
    open: OpenConfig,
    remote: LinkConfig,
    options: { keepMine?: boolean } = {},
  ): boolean {
    const { merged, conflicts } = threeWayMerge<LinkConfig>(
      this.page.raw(open.base),
      this.page.raw(open.draft),
      remote,
    );
    // The merge holds the draft's value wherever the two conflict.
    if (merged === null || (conflicts.length > 0 && !options.keepMine))
      return false;
    open.draft = structuredClone(merged);
    open.base = remote;
    open.remote = null;
    open.settingsText = settingsText(merged);
    open.settingsProblem = null;
    const editing = this.page.state.link.editing;
    if (editing !== null && !Object.hasOwn(merged.allLinks, editing))
      this.page.state.link = emptyForm(NO_LINK);
    this.page.recheckExpression();
    return true;
  }
}

/** Puts `config` in the editor in place of the draft (a saved or another version; the draft's base). */
export function showInEditor(
  page: PageContext,
  open: OpenConfig,
  config: LinkConfig,
): void {
  open.draft = structuredClone(config);
  open.base = config;
  open.dirty = false;
  open.remote = null;
  open.settingsText = settingsText(config);
  open.settingsProblem = null;
  const editing = page.state.link.editing;
  if (editing !== null && !Object.hasOwn(config.allLinks, editing))
    page.state.link = emptyForm(NO_LINK);
  page.recheckExpression();
}
