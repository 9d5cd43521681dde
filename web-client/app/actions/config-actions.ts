/**
 * Opening, creating, saving and deleting configs through the hybrid store; what happens when the open
 * one changes elsewhere is in `remote-change-actions.ts`. Unsaved edits are never dropped without asking.
 */
import { sameValue, validateLinkConfig } from '@linkconfig/shared';
import type { LinkConfig } from '@linkconfig/shared';
import type { MergeReport } from '@linkconfig/web-client';
import type { RemoteChangeAnswer } from '../views/actions.js';
import { settingsText } from '../model/config-draft.js';
import { checkConfigName } from '../model/input-checks.js';
import type { PageContext } from './page-context.js';
import { writeOpenConfig } from '../session/preferences.js';
import { DraftKeeper } from './draft-keeper.js';
import { RemoteChangeActions, showInEditor } from './remote-change-actions.js';
import { ACCESS } from '@linkconfig/web-client';
import { createRefusal } from '../state/status-model.js';
import { withLocalSave } from '../state/config-places.js';
import {
  emptyForm,
  initialLinksView,
  NO_LINK,
  NO_MACRO,
  NO_PATTERN,
} from '../state/state.js';
import type { OpenConfig } from '../state/state.js';
import { initialBulk } from '../state/bulk-state.js';

/** How to open a config. */
export interface OpenOptions {
  /** Move focus to the config (a person chose it), or leave it where it is (a reload, a retry). */
  moveFocus: boolean;
  /** A link to point at. */
  target?: string;
  /** The person already agreed to drop unsaved edits. */
  asked?: boolean;
}

/** The config operations of the page. */
export class ConfigActions {
  /** A config the person asked for that could not be opened yet (no token, server away). */
  private wanted: string | null = null;
  /** Counts opens, so a slow load never replaces a later choice. */
  private openRun = 0;

  private readonly remote: RemoteChangeActions;
  /** The open config's unsaved edits, kept in the browser store. */
  readonly keeper: DraftKeeper;

  /**
   * `shown(name)` is told when config `name` opened (the page reads what the server knows of it, such as
   * its links' health). Not after a save: the save goes through the store, which may be holding its
   * requests (Retry-After, H12), and a read beside it would not hold; a link whose URL a save changed
   * shows as not checked from the page's own comparison.
   */
  constructor(
    private readonly page: PageContext,
    private readonly shown: (name: string) => void = () => undefined,
  ) {
    this.remote = new RemoteChangeActions(page, (message) =>
      this.close(message),
    );
    this.keeper = new DraftKeeper(page);
  }

  /** Tries again to open the config that could not be opened, if nothing else is open. */
  async retryWanted(): Promise<void> {
    if (this.page.state.open === null && this.wanted !== null)
      await this.open(this.wanted, { moveFocus: false });
  }

  /** Asks before unsaved edits are dropped; answers whether to go on. */
  async mayLeave(): Promise<boolean> {
    const open = this.page.state.open;
    if (!open?.dirty) return true;
    return this.page.ask({
      title: `Discard the unsaved edits to “${open.name}”?`,
      body: 'Your edits to this config are not saved. Going on discards them; “Keep editing” lets you save them first.',
      confirm: 'Discard edits',
      cancel: 'Keep editing',
      danger: true,
    });
  }

  async open(name: string, options: OpenOptions): Promise<void> {
    const session = this.page.session();
    if (!session) return;
    const { state } = this.page;
    const target = options.target ?? null;
    if (state.open?.name === name) {
      state.open.targetLinkId = target;
      this.page.focus(
        target === null
          ? '#editor-heading'
          : `#editor [data-link-id="${CSS.escape(target)}"]`,
      );
      return;
    }
    const item = state.configs.find((config) => config.name === name);
    const away = !state.online || state.reachable === false;
    if (state.open !== null && away && item && !item.local) {
      // It cannot come while the server is away: the open config stays rather than making way.
      state.listNotice = `“${name}” is kept on the server only, so it opens once the server can be reached; “${state.open.name}” stays open.`;
      this.page.announce(state.listNotice);
      return;
    }
    if (!options.asked && !(await this.mayLeave())) return;
    const run = ++this.openRun;
    let config: LinkConfig | null;
    try {
      config = await session.store.load(name);
    } catch (error) {
      if (run === this.openRun) this.close(this.page.describe(error));
      return;
    }
    if (run !== this.openRun) return;
    if (config === null) {
      this.cannotOpen(name);
      return;
    }
    this.wanted = null;
    state.listNotice = null;
    state.open = {
      name,
      draft: structuredClone(config),
      dirty: false,
      settingsText: settingsText(config),
      settingsProblem: null,
      saveProblem: null,
      remote: null,
      incoming: null,
      targetLinkId: target,
    };
    // The store's edit of it starts from `config`; unsaved edits kept in this browser (a reload, a
    // closed tab) come back.
    await this.keeper.start(state.open, config, (open, remote) =>
      this.remote.mergeIncoming(open, remote),
    );
    if (run !== this.openRun) return;
    state.link = emptyForm(NO_LINK);
    state.links = initialLinksView();
    // A new list: nothing selected; the last bulk action's Undo stays on offer for its config.
    state.bulk = { ...initialBulk(), applied: state.bulk.applied };
    state.macro = emptyForm(NO_MACRO);
    state.pattern = emptyForm(NO_PATTERN);
    writeOpenConfig(name);
    history.replaceState(null, '', `?config=${encodeURIComponent(name)}`);
    if (target !== null)
      this.page.focus(`#editor [data-link-id="${CSS.escape(target)}"]`);
    else if (options.moveFocus) this.page.focus('#editor-heading');
    this.page.recheckExpression();
    this.shown(name);
    // Opening may have fetched it from the server into this browser: update its marker.
    void this.page.refreshNames();
  }

  /** Says why `name` cannot be opened; remembers it when it may open later. */
  private cannotOpen(name: string): void {
    const item = this.page.state.configs.find((config) => config.name === name);
    const away = !this.page.state.online || this.page.state.reachable === false;
    const access = this.page.state.access.read;
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

  close(message: string, options = { forget: true }): void {
    this.page.state.open = null;
    this.page.state.editorMessage = message;
    this.page.recheckExpression();
    if (options.forget) {
      writeOpenConfig(null);
      history.replaceState(null, '', location.pathname);
    }
  }

  async create(): Promise<void> {
    const session = this.page.session();
    const form = this.page.state.create;
    const name = form.values.name.trim();
    form.submitted = true;
    const exists = this.page.state.configs.some((item) => item.name === name);
    if (
      !session ||
      checkConfigName(name) !== null ||
      createRefusal(this.page.state, name) !== null
    ) {
      this.page.focus('#new-config-name');
      return;
    }
    if (!(await this.mayLeave())) return;
    if (!exists) {
      try {
        await session.store.save(name, { allLinks: {} });
      } catch (error) {
        this.page.state.pageProblem = this.page.describe(error);
        return;
      }
      await this.page.refreshNames();
    }
    this.page.state.create = emptyForm({ name: '' });
    await this.open(name, { moveFocus: false, asked: true });
    if (this.page.state.open?.name === name) {
      this.page.focus(exists ? '#editor-heading' : '#link-id');
      this.page.announce(
        exists
          ? `“${name}” exists already: it is open now.`
          : `Created “${name}”. Add its first link.`,
      );
    }
  }

  async save(): Promise<void> {
    const session = this.page.session();
    const open = this.page.state.open;
    if (!session || !open || !open.dirty) return;
    if (open.settingsProblem !== null) {
      open.saveProblem = `Not saved: the settings are not valid. ${open.settingsProblem}`;
      this.page.focus('#settings-json');
      return;
    }
    if (!(await this.basedOnLatest(open))) return;
    const valid = validateLinkConfig(open.draft);
    if (!valid.ok) {
      open.saveProblem = `Not saved: ${valid.error}.`;
      return;
    }
    const saved = open.draft;
    try {
      await session.store.save(open.name, this.page.raw(saved));
    } catch (error) {
      open.saveProblem = `Not saved: ${this.page.describe(error)}`;
      return;
    }
    // Edits made while saving stay unsaved; the store's edit now starts from what was saved.
    if (open.draft === saved) open.dirty = false;
    open.saveProblem = null;
    open.remote = null;
    open.incoming = null;
    // A note about an earlier merge into the draft is history now.
    this.page.state.mergedNote = null;
    this.page.state.configs = withLocalSave(this.page.state.configs, open.name);
    this.page.announce(`Saved “${open.name}”.`);
  }

  /**
   * Whether the draft may be saved now: nothing changed elsewhere waits for an answer, and the copy in
   * this browser is still the version the draft started from. A newer copy that arrived before the
   * page heard of it is merged in first (the save then sends the merge), or its conflicts are shown
   * and the save waits, so a save never replaces a change the person has not seen.
   */
  private async basedOnLatest(open: OpenConfig): Promise<boolean> {
    const session = this.page.session();
    if (!session) return false;
    if (open.remote === null) {
      // This browser's copy only: asking the server here would cost every save a round trip.
      const current = await session.localCopy(open.name).catch(() => null);
      if (this.page.state.open !== open) return false;
      const base = session.store.editBase(open.name);
      if (current !== null && !sameValue(current, base))
        this.remote.mergeIncoming(open, current);
    }
    if (open.remote === null) return true;
    open.saveProblem =
      open.remote === 'removed'
        ? 'Not saved: this config was deleted elsewhere. Choose “Keep mine” to create it again, or close it.'
        : 'Not saved: this config changed elsewhere in places you edited too. Choose per field below, then save.';
    this.page.focus('[data-testid="remote-change-notice"]');
    return false;
  }

  async remove(): Promise<void> {
    const session = this.page.session();
    const open = this.page.state.open;
    if (!session || !open) return;
    const count = Object.keys(open.draft.allLinks).length;
    const confirmed = await this.page.ask({
      title: `Delete the config “${open.name}”?`,
      body: `This deletes “${open.name}” and its ${count} ${count === 1 ? 'link' : 'links'}, in this browser and on the server.`,
      confirm: 'Delete config',
      cancel: 'Keep it',
      danger: true,
    });
    if (!confirmed || this.page.state.open !== open) return;
    try {
      await session.store.remove(open.name);
    } catch (error) {
      open.saveProblem = `Not deleted: ${this.page.describe(error)}`;
      return;
    }
    this.close(`Config “${open.name}” was deleted.`);
    this.page.focus('#editor-heading');
    this.page.announce(`Deleted “${open.name}”.`);
    await this.page.refreshNames();
  }

  /** A change made elsewhere to config `name` (see `RemoteChangeActions`). */
  remoteChanged(name: string): Promise<void> {
    return this.remote.remoteChanged(name);
  }

  /** Answers the notice about a change made elsewhere to the open config. */
  answerRemote(answer: RemoteChangeAnswer): Promise<void> {
    return this.remote.answerRemote(answer);
  }

  /** Hides the note that changes made elsewhere were merged. */
  dismissMergedNote(): void {
    this.page.state.mergedNote = null;
  }

  /** A save met a newer server version and the store merged them (see `RemoteChangeActions`). */
  mergedOnSave(name: string, report: MergeReport): void {
    this.remote.mergedOnSave(name, report);
  }

  /**
   * Puts `config` in the editor as the draft and saves it: one save, one revision (a tag rename, a merge
   * of links, or the version before one of them, saved again by Undo).
   */
  async saveAs(config: LinkConfig): Promise<void> {
    const open = this.page.state.open;
    if (open === null) return;
    open.draft = structuredClone(this.page.raw(config));
    open.settingsText = settingsText(config);
    open.settingsProblem = null;
    open.dirty = true;
    await this.save();
    this.page.recheckExpression();
  }

  /** Puts `config` in the editor in place of the draft. */
  show(open: OpenConfig, config: LinkConfig): void {
    showInEditor(this.page, open, config);
  }
}
