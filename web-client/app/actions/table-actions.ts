/**
 * The links table's cell edits and the list's keyboard. A cell edited in place goes through the link
 * form's path: the same checks of what was typed and the same draft edit (`putLink`), so the draft is
 * unsaved until "Save config" (or Ctrl+S), as after "Update link". The shortcuts come from the one
 * dispatcher in `model/shortcuts.ts`.
 */
import { linkFields, putLink } from '../model/config-draft.js';
import { checkTags, checkUrl } from '../model/input-checks.js';
import { moveCursor } from '../model/shortcuts.js';
import type { Shortcut } from '../model/shortcuts.js';
import { toggleSelected, NO_SELECTION } from '../model/link-selection.js';
import type { CellEdit } from '../state/bulk-state.js';
import { writeRefusal } from '../state/status-model.js';
import { changeDraft } from './form-actions.js';
import type { PageContext } from './page-context.js';

/** What the table needs of the link form: open it on a link, close it. */
export interface LinkFormHooks {
  edit(id: string): void;
  cancel(): void;
}

/** The row of link `id`. */
export function rowSelector(id: string): string {
  return `[data-testid="link-row"][data-link-id="${CSS.escape(id)}"]`;
}

/** The edit button of a cell of link `id`. */
export function cellButton(id: string, field: CellEdit['field']): string {
  return `${rowSelector(id)} [data-cell-edit="${field}"]`;
}

export class TableActions {
  constructor(
    private readonly page: PageContext,
    private readonly form: LinkFormHooks,
  ) {}

  /** Starts editing one cell of link `id` in place. */
  startCell(id: string, field: CellEdit['field']): void {
    const { state } = this.page;
    const open = state.open;
    const link = open?.draft.allLinks[id];
    if (open === null || link === undefined) return;
    if (writeRefusal(state, open.name) !== null) return;
    state.bulk.cell = {
      id,
      field,
      value: linkFields(id, link)[field],
      problem: null,
    };
    state.bulk.cursor = id;
    this.page.focus('#cell-input');
  }

  cellInput(value: string): void {
    const cell = this.page.state.bulk.cell;
    if (cell === null) return;
    cell.value = value;
    cell.problem = null;
  }

  /** Puts the cell's value in the draft, checked as the link form checks it. */
  commitCell(): void {
    const { state } = this.page;
    const cell = state.bulk.cell;
    const open = state.open;
    const link = open?.draft.allLinks[cell?.id ?? ''];
    if (cell === null || open === null || link === undefined) return;
    const fields = linkFields(cell.id, link);
    if (fields[cell.field] === cell.value) {
      this.cancelCell();
      return;
    }
    const problem =
      cell.field === 'url'
        ? checkUrl(cell.value)
        : cell.field === 'tags'
          ? checkTags(cell.value)
          : null;
    if (problem !== null) {
      cell.problem = problem;
      this.page.focus('#cell-input');
      return;
    }
    changeDraft(
      open,
      putLink(open.draft, { ...fields, [cell.field]: cell.value }, cell.id),
    );
    state.links.touched = { ...state.links.touched, [cell.id]: Date.now() };
    state.bulk.cell = null;
    this.page.focus(cellButton(cell.id, cell.field));
    this.page.announce(
      `Updated the ${cell.field === 'url' ? 'URL' : cell.field} of link “${cell.id}”. Save the config to keep it.`,
    );
  }

  cancelCell(): void {
    const cell = this.page.state.bulk.cell;
    if (cell === null) return;
    this.page.state.bulk.cell = null;
    this.page.focus(cellButton(cell.id, cell.field));
  }

  showHelp(shown: boolean): void {
    this.page.state.bulk.help = shown;
  }

  /** Carries out a shortcut; answers whether it did something (then the key is taken). */
  shortcut(shortcut: Shortcut): boolean {
    const { state } = this.page;
    const bulk = state.bulk;
    if (shortcut === 'help') {
      bulk.help = true;
      return true;
    }
    if (shortcut === 'cancel') return this.cancel();
    const open = state.open;
    if (open === null) return false;
    switch (shortcut) {
      case 'focus-filter':
        this.page.focus('#link-filter');
        return true;
      case 'next':
      case 'previous': {
        const next = moveCursor(
          shownRows(),
          bulk.cursor,
          shortcut === 'next' ? 1 : -1,
        );
        if (next === null) return false;
        bulk.cursor = next;
        this.page.focus(rowSelector(next));
        return true;
      }
      case 'edit':
        if (bulk.cursor === null || writeRefusal(state, open.name) !== null)
          return false;
        this.form.edit(bulk.cursor);
        return true;
      case 'select':
        if (bulk.cursor === null) return false;
        bulk.selection = toggleSelected(bulk.selection, bulk.cursor);
        return true;
    }
  }

  /** Escape: ends what is going on, the innermost first. */
  private cancel(): boolean {
    const { state } = this.page;
    const bulk = state.bulk;
    if (bulk.help) bulk.help = false;
    else if (bulk.cell !== null) this.cancelCell();
    else if (state.link.editing !== null) this.form.cancel();
    else if (document.activeElement?.closest('.finder') && state.open !== null)
      // Out of the filter (the selection stays), to the list: j and k work from there.
      this.page.focus('#links-heading');
    else if (bulk.selection.ids.length > 0) bulk.selection = NO_SELECTION;
    else return false;
    return true;
  }
}

/** The ids of the rows drawn, in their order on screen. */
function shownRows(): string[] {
  return [
    ...document.querySelectorAll<HTMLElement>('[data-testid="link-row"]'),
  ].map((row) => row.dataset['linkId'] ?? '');
}
