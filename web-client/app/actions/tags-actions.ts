/**
 * The Tags section: choose tags, preview their rename or merge with the shared rule (`planTagRename`, the
 * one the server's rename route uses), apply it as one save (one revision), and Undo it in one step.
 */
import { planTagRename, TagNameSchema } from '@linkconfig/shared';
import type { LinkConfig } from '@linkconfig/shared';
import type { ConfigActions } from './config-actions.js';
import type { PageContext } from './page-context.js';

export class TagsActions {
  constructor(
    private readonly page: PageContext,
    private readonly configs: ConfigActions,
  ) {}

  /** The section was unfolded or folded. */
  show(shown: boolean): void {
    this.page.state.tags.shown = shown;
  }

  /** Adds `tag` to the chosen tags, or takes it out. */
  choose(tag: string): void {
    const tags = this.page.state.tags;
    tags.chosen = tags.chosen.includes(tag)
      ? tags.chosen.filter((t) => t !== tag)
      : [...tags.chosen, tag];
    if (tags.to === '' || !tags.chosen.includes(tags.to)) {
      tags.to = tags.chosen[0] ?? '';
    }
    tags.preview = null;
    tags.problem = null;
  }

  setTo(text: string): void {
    this.page.state.tags.to = text.trim();
    this.page.state.tags.preview = null;
  }

  /** The preview of the rename on the open draft. */
  preview(): void {
    const open = this.page.state.open;
    const tags = this.page.state.tags;
    if (open === null) return;
    const problem = this.problem();
    tags.problem = problem;
    if (problem !== null) return;
    const started = performance.now();
    const plan = planTagRename(this.draft(), tags.chosen, tags.to);
    tags.previewMs = Math.round(performance.now() - started);
    performance.measure('tags:preview', { start: started });
    tags.preview = plan.preview;
  }

  /** Applies the rename to the open config and saves it: one save, one revision. */
  async apply(): Promise<void> {
    const open = this.page.state.open;
    const tags = this.page.state.tags;
    if (open === null) return;
    const problem = this.problem();
    tags.problem = problem;
    if (problem !== null) return;
    const before = this.draft();
    const plan = planTagRename(before, tags.chosen, tags.to);
    if (!plan.changes) {
      tags.problem = 'Nothing names these tags: nothing to change.';
      return;
    }
    const summary = `${tags.chosen.join(', ')} → ${tags.to}: ${plan.preview.links.length} links, ${plan.preview.expressions.length} expressions`;
    await this.saveAs(plan.next as LinkConfig);
    if (open.saveProblem !== null) return;
    tags.applied = { name: open.name, before, summary };
    tags.chosen = [];
    tags.to = '';
    tags.preview = null;
    this.page.announce(`Renamed ${summary}.`);
  }

  /** Takes the last rename back: the config as it was, saved again (one more revision). */
  async undo(): Promise<void> {
    const open = this.page.state.open;
    const applied = this.page.state.tags.applied;
    if (open === null || applied === null || applied.name !== open.name) return;
    // The state is reactive: the kept version is read as plain data before it is cloned.
    await this.saveAs(this.page.raw(applied.before));
    if (open.saveProblem !== null) return;
    this.page.state.tags.applied = null;
    this.page.announce(`Undid the rename ${applied.summary}.`);
  }

  /** Why the chosen rename cannot run now, or null. */
  private problem(): string | null {
    const open = this.page.state.open;
    const tags = this.page.state.tags;
    if (open === null) return 'No config is open.';
    if (open.dirty)
      return 'Save or revert your unsaved edits first: a rename is saved on its own.';
    if (tags.chosen.length === 0) return 'Choose at least one tag.';
    const to = TagNameSchema.safeParse(tags.to);
    if (!to.success)
      return `The new name ${to.error.issues[0]?.message ?? 'is not valid'}.`;
    return null;
  }

  /** The open draft as plain data. */
  private draft(): LinkConfig {
    const open = this.page.state.open;
    return structuredClone(this.page.raw(open?.draft)) as LinkConfig;
  }

  /** Puts `config` in the editor as the draft and saves it. */
  private saveAs(config: LinkConfig): Promise<void> {
    return this.configs.saveAs(config);
  }
}
