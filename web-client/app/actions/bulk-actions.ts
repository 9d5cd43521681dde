/**
 * Bulk edits of the selected links: select (one, a shift-click range, every link shown), then add or
 * remove tags, delete, set a field, or move or copy them to another config the key may write. Each
 * action is worked out by the pure rules of `model/bulk-edit.ts` as one merge patch per config, put in
 * the draft and saved once through the store (the seam every save takes): one revision per config,
 * and Undo takes it back in one step.
 */
import { validateLinkConfig } from '@linkconfig/shared';
import type { LinkConfig } from '@linkconfig/shared';
import {
  bulkPatch,
  patched,
  transferPatches,
  undone,
} from '../model/bulk-edit.js';
import type { BulkAction } from '../model/bulk-edit.js';
import {
  keepPresent,
  NO_SELECTION,
  selectAll,
  selectRange,
  toggleSelected,
} from '../model/link-selection.js';
import { settingsText } from '../model/config-draft.js';
import type { BulkWrite } from '../state/bulk-state.js';
import { writeRefusal } from '../state/status-model.js';
import type { ConfigActions } from './config-actions.js';
import type { PageContext } from './page-context.js';

/** The fields of the bulk bar. */
export type BulkField = 'tags' | 'field' | 'value' | 'target';
/** The bulk actions on the open config alone. */
export type BulkKind = BulkAction['kind'];

export class BulkActions {
  constructor(
    private readonly page: PageContext,
    private readonly configs: ConfigActions,
  ) {}

  /** A link's checkbox: toggles it, or with Shift the range from the last one clicked in `order`. */
  select(
    id: string,
    options: { range: boolean; order: readonly string[] },
  ): void {
    const bulk = this.page.state.bulk;
    bulk.selection = options.range
      ? selectRange(bulk.selection, options.order, id)
      : toggleSelected(bulk.selection, id);
    bulk.cursor = id;
    bulk.problem = null;
  }

  /** "Select all N shown": every link the filter found. */
  selectAll(ids: readonly string[]): void {
    const bulk = this.page.state.bulk;
    bulk.selection = selectAll(bulk.selection, ids);
    bulk.problem = null;
    this.page.announce(`${bulk.selection.ids.length} links selected.`);
  }

  clear(): void {
    this.page.state.bulk.selection = NO_SELECTION;
    this.page.state.bulk.problem = null;
  }

  input(field: BulkField, value: string): void {
    this.page.state.bulk[field] = value;
    this.page.state.bulk.problem = null;
  }

  /** Applies a bulk action to the selected links of the open config and saves it (one revision). */
  async apply(kind: BulkKind): Promise<void> {
    const { state } = this.page;
    const open = state.open;
    const bulk = state.bulk;
    if (open === null || this.refused()) return;
    const started = performance.now();
    const before = this.plain(open.draft);
    const action: BulkAction =
      kind === 'delete'
        ? { kind }
        : kind === 'set-field'
          ? { kind, field: bulk.field, value: bulk.value }
          : { kind, tags: bulk.tags };
    const plan = bulkPatch(before, this.page.raw(bulk.selection.ids), action);
    if (!plan.ok) {
      bulk.problem = plan.problem;
      return;
    }
    const after = this.checked(patched(before, plan.patch));
    if (after === null) return;
    this.measure(started);
    const summary = this.summary(kind, plan.changed.length);
    if (!(await this.saveOpen(after))) return;
    if (kind === 'delete')
      bulk.selection = keepPresent(bulk.selection, after.allLinks);
    bulk.applied = {
      name: open.name,
      writes: [{ name: open.name, before, after }],
      summary,
    };
    this.page.announce(`${summary}.`);
  }

  /** Moves or copies the selected links to the config in the bulk bar: one save in each config. */
  async transfer(mode: 'move' | 'copy'): Promise<void> {
    const { state } = this.page;
    const open = state.open;
    const bulk = state.bulk;
    const session = this.page.session();
    if (open === null || session === null) return;
    if (mode === 'move' && this.refused()) return;
    const target = bulk.target;
    if (target === '' || target === open.name) {
      bulk.problem = 'Choose another config to move or copy to.';
      return;
    }
    const refusal = writeRefusal(state, target);
    if (refusal !== null) {
      bulk.problem = refusal;
      return;
    }
    if (open.dirty) {
      bulk.problem = DIRTY;
      return;
    }
    let targetBefore: LinkConfig | null;
    try {
      targetBefore = await session.store.load(target);
    } catch (error) {
      bulk.problem = `Could not read ${target}: ${this.page.describe(error)}`;
      return;
    }
    if (targetBefore === null) {
      bulk.problem = `There is no config “${target}” any more.`;
      return;
    }
    const started = performance.now();
    const before = this.plain(open.draft);
    const plan = transferPatches(
      { source: before, target: targetBefore },
      this.page.raw(bulk.selection.ids),
      mode,
    );
    if (!plan.ok) {
      bulk.problem = plan.problem;
      return;
    }
    const targetAfter = this.checked(patched(targetBefore, plan.target));
    const after =
      plan.source === undefined
        ? before
        : this.checked(patched(before, plan.source));
    if (targetAfter === null || after === null) return;
    this.measure(started);
    const writes: BulkWrite[] = [];
    // The links reach the other config first: a failure after that leaves them in both, never in none.
    if (!(await this.saveOther(target, targetAfter))) return;
    writes.push({ name: target, before: targetBefore, after: targetAfter });
    if (plan.source !== undefined) {
      if (!(await this.saveOpen(after))) return;
      writes.push({ name: open.name, before, after });
      bulk.selection = keepPresent(bulk.selection, after.allLinks);
    }
    const summary = `${mode === 'move' ? 'Moved' : 'Copied'} ${count(plan.ids.length)} to ${target}`;
    bulk.applied = { name: open.name, writes, summary };
    this.page.announce(`${summary}.`);
    await this.page.refreshNames();
  }

  /** Takes the last bulk action back: one more save of each config it wrote. */
  async undo(): Promise<void> {
    const { state } = this.page;
    const open = state.open;
    const applied = this.page.raw(state.bulk.applied);
    const session = this.page.session();
    if (open === null || applied === null || session === null) return;
    if (applied.name !== open.name || this.refused()) return;
    for (const write of applied.writes) {
      if (write.name === open.name) {
        const back = undone(this.plain(open.draft), write.before, write.after);
        if (!(await this.saveOpen(back))) return;
      } else {
        const current = await session.store.load(write.name).catch(() => null);
        const back = undone(current ?? write.after, write.before, write.after);
        if (!(await this.saveOther(write.name, back))) return;
      }
    }
    state.bulk.applied = null;
    this.page.announce(`Undid: ${applied.summary}.`);
    if (applied.writes.length > 1) await this.page.refreshNames();
  }

  /** Whether the open config may not take a bulk action now (the reason goes in the bar). */
  private refused(): boolean {
    const { state } = this.page;
    const open = state.open;
    if (open === null) return true;
    const problem =
      writeRefusal(state, open.name) ?? (open.dirty ? DIRTY : null);
    state.bulk.problem = problem;
    return problem !== null;
  }

  /** `config` when it is a valid config, else null with the reason in the bar. */
  private checked(config: LinkConfig): LinkConfig | null {
    const valid = validateLinkConfig(config);
    if (valid.ok) return config;
    this.page.state.bulk.problem = `Not changed: ${valid.error}.`;
    return null;
  }

  /** Puts `config` in the editor as the draft and saves it; answers whether it was saved. */
  private async saveOpen(config: LinkConfig): Promise<boolean> {
    const open = this.page.state.open;
    if (open === null) return false;
    const bulk = this.page.state.bulk;
    open.draft = config;
    open.settingsText = settingsText(config);
    open.settingsProblem = null;
    open.dirty = true;
    bulk.busy = true;
    try {
      await this.configs.save();
    } finally {
      bulk.busy = false;
    }
    this.page.recheckExpression();
    if (open.saveProblem === null) return true;
    bulk.problem = open.saveProblem;
    return false;
  }

  /** Saves another config through the store; answers whether it was saved. */
  private async saveOther(name: string, config: LinkConfig): Promise<boolean> {
    const session = this.page.session();
    if (session === null) return false;
    const bulk = this.page.state.bulk;
    bulk.busy = true;
    try {
      await session.store.save(name, config);
      return true;
    } catch (error) {
      bulk.problem = `Not saved in ${name}: ${this.page.describe(error)}`;
      return false;
    } finally {
      bulk.busy = false;
    }
  }

  /** The main-thread time of working the action out and putting it in place. */
  private measure(started: number): void {
    this.page.state.bulk.lastMs = Math.round(performance.now() - started);
    performance.measure('bulk:apply', { start: started });
  }

  private summary(kind: BulkKind, changed: number): string {
    const bulk = this.page.state.bulk;
    switch (kind) {
      case 'add-tags':
        return `Added ${bulk.tags.trim()} to ${count(changed)}`;
      case 'remove-tags':
        return `Removed ${bulk.tags.trim()} from ${count(changed)}`;
      case 'delete':
        return `Deleted ${count(changed)}`;
      case 'set-field':
        return bulk.value.trim() === ''
          ? `Removed ${bulk.field.trim()} from ${count(changed)}`
          : `Set ${bulk.field.trim()} of ${count(changed)}`;
    }
  }

  /** A plain copy of part of the state, to change and store. */
  private plain(config: LinkConfig): LinkConfig {
    return structuredClone(this.page.raw(config));
  }
}

const DIRTY =
  'Save or revert your unsaved edits first: a bulk action is saved on its own.';

function count(n: number): string {
  return `${n} ${n === 1 ? 'link' : 'links'}`;
}
