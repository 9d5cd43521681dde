/** "Revert to saved": the draft makes way for the version saved last, once the person agreed. */
import type { ConfigActions } from './config-actions.js';
import { draftLosses } from '../model/draft-loss.js';
import type { PageContext } from './page-context.js';

/** The draft as a whole. */
export class DraftActions {
  constructor(
    private readonly page: PageContext,
    private readonly configs: ConfigActions,
  ) {}

  /** Discards the draft for the version saved last, after saying what would be lost. */
  async revert(): Promise<void> {
    const open = this.page.state.open;
    if (!open?.dirty) return;
    // The version the draft started from, as the store keeps it.
    const base = this.page.session()?.store.editBase(open.name);
    if (base === undefined) return;
    const losses = draftLosses(this.page.raw(open.draft), base);
    const confirmed = await this.page.ask({
      title: `Revert “${open.name}” to the saved version?`,
      body: `This discards your unsaved edits: ${losses.length > 0 ? losses.join('; ') : 'settings text that is not valid JSON'}. They cannot be brought back.`,
      confirm: 'Discard edits',
      cancel: 'Keep editing',
      danger: true,
    });
    if (!confirmed || this.page.state.open !== open) {
      this.page.focus('[data-testid="revert-config"]');
      return;
    }
    // The store's base, as it is now: a merge while the question was open may have moved it.
    const saved = this.page.session()?.store.editBase(open.name);
    if (saved !== undefined) this.configs.show(open, saved);
    this.page.state.undo = null;
    this.page.focus('#editor-heading');
    this.page.announce(`“${open.name}” is back to the saved version.`);
  }
}
