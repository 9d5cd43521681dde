/**
 * Keeps the open config's unsaved edits in the browser store (`HybridStore.keepDraft`), so that a
 * reload or a closed tab does not lose them: shortly after each change of the draft while it has
 * unsaved edits, and forgotten once it has none (saved, reverted, shown anew) or the person left it.
 * Opening a config starts the store's edit of it (`start`), which gives a kept draft back. The store
 * keeps the version the draft started from; the page's own storage holds no draft and no base.
 */
import { sameValue } from '@linkconfig/shared';
import type { LinkConfig } from '@linkconfig/shared';
import { settingsText } from '../model/config-draft.js';
import type { OpenConfig } from '../state/state.js';
import type { PageContext } from './page-context.js';

/** How long the draft must rest before it is kept (typing makes many changes). */
const KEEP_AFTER_MS = 300;

interface Seen {
  name: string;
  draft: LinkConfig;
  dirty: boolean;
}

export class DraftKeeper {
  private last: Seen | null = null;
  private timer: ReturnType<typeof setTimeout> | null = null;

  constructor(private readonly page: PageContext) {}

  /** Called after each change of the page's state: keeps or forgets the draft as it now stands. */
  follow(open: OpenConfig | null): void {
    const now: Seen | null =
      open === null
        ? null
        : {
            name: open.name,
            draft: this.page.raw(open.draft),
            dirty: open.dirty,
          };
    const before = this.last;
    if (
      before?.name === now?.name &&
      before?.draft === now?.draft &&
      before?.dirty === now?.dirty
    )
      return;
    this.last = now;
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    const store = this.page.session()?.store;
    if (store === undefined) return;
    if (
      before?.dirty === true &&
      (now === null || now.name !== before.name || !now.dirty)
    )
      void store.dropDraft(before.name).catch(() => undefined);
    if (now === null || !now.dirty) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      // The store keeps it with the version it started from; a failure of the browser's storage loses
      // only this copy.
      void store.keepDraft(now.name, now.draft).catch(() => undefined);
    }, KEEP_AFTER_MS);
  }

  /**
   * Starts the store's edit of the config just opened (`open` shows the stored version `config`) and
   * puts the unsaved edits kept for it back into the editor. When that version moved on since the
   * edits started, the newer one meets them through the same merge as a change from elsewhere
   * (`mergeIncoming`).
   */
  async start(
    open: OpenConfig,
    config: LinkConfig,
    mergeIncoming: (open: OpenConfig, remote: LinkConfig) => void,
  ): Promise<void> {
    const store = this.page.session()?.store;
    const kept = await store?.startEdit(open.name, config).catch(() => null);
    if (!kept || this.page.state.open !== open) return;
    open.draft = structuredClone(kept.draft);
    open.dirty = true;
    open.settingsText = settingsText(kept.draft);
    this.page.announce(
      `Unsaved edits of “${open.name}” kept in this browser are back.`,
    );
    if (kept.base !== null && !sameValue(kept.base, config))
      mergeIncoming(open, config);
  }
}
