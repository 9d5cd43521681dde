/**
 * The open config: its links in a table, a form to add or edit a link, and buttons to save or delete
 * the config. Edits go to a draft; "Save config" hands the draft to the store.
 */
import type { Link, LinkConfig } from '@linkconfig/shared';
import { byTestId, fieldValue, h, setFieldValue } from './dom.js';

/** What the editor asks its owner to do. */
export interface EditorActions {
  /** Saves the config; resolves `false` when it could not (the owner shows why). */
  save(name: string, config: LinkConfig): Promise<boolean>;
  remove(name: string): Promise<boolean>;
}

/** Editor of one config at a time. */
export class ConfigEditor {
  private name: string | null = null;
  private draft: LinkConfig = { allLinks: {} };
  private dirty = false;
  private editingId: string | null = null;
  private readonly heading = byTestId('editor-heading');
  private readonly hint = byTestId('editor-hint');
  private readonly body = byTestId('editor-body');
  private readonly draftState = byTestId('draft-state');
  private readonly rows = byTestId('links-body');
  private readonly form = byTestId<HTMLFormElement>('link-form');
  private readonly legend = byTestId('link-form-legend');
  private readonly submit = byTestId<HTMLButtonElement>('link-submit');
  private readonly cancel = byTestId<HTMLButtonElement>('link-cancel');

  constructor(private readonly actions: EditorActions) {
    this.form.addEventListener('submit', (event) => {
      event.preventDefault();
      this.applyLinkForm();
    });
    this.cancel.addEventListener('click', () => this.resetLinkForm());
    byTestId('save-config').addEventListener('click', () => void this.save());
    byTestId('delete-config').addEventListener(
      'click',
      () => void this.remove(),
    );
  }

  /** The name of the open config, if any. */
  get openName(): string | null {
    return this.name;
  }

  /** Whether the draft has edits not yet saved. */
  get hasUnsavedEdits(): boolean {
    return this.dirty;
  }

  /** Shows `config` under `name`, dropping any draft. */
  open(name: string, config: LinkConfig): void {
    this.name = name;
    this.draft = structuredClone(config);
    this.dirty = false;
    this.resetLinkForm();
    this.heading.textContent = `Config "${name}"`;
    this.hint.textContent = '';
    this.hint.hidden = true;
    this.body.hidden = false;
    this.render('Saved in this browser.');
  }

  /**
   * Shows a newer version of the open config (from a background refresh) without touching the link
   * form, which the person may be filling in. Ignored when there are unsaved edits.
   */
  refresh(name: string, config: LinkConfig): void {
    if (name !== this.name) return;
    if (this.dirty) {
      this.noteRemoteChange();
      return;
    }
    // Our own save coming back with the server's time stamps: nothing to show.
    if (JSON.stringify(config) === JSON.stringify(this.draft)) return;
    this.draft = structuredClone(config);
    if (this.editingId !== null && !(this.editingId in config.allLinks))
      this.resetLinkForm();
    this.render('Saved in this browser. Updated from the server.');
  }

  /** Shows a message instead of a config (not found, deleted, could not load). */
  close(message: string): void {
    this.name = null;
    this.dirty = false;
    this.heading.textContent = 'No config open';
    this.hint.textContent = message;
    this.hint.hidden = false;
    this.body.hidden = true;
  }

  /** Tells the person that the server copy changed while they have unsaved edits. */
  noteRemoteChange(): void {
    this.render(
      'Unsaved edits. This config was changed elsewhere meanwhile; saving will replace that version.',
    );
  }

  private render(state: string): void {
    this.draftState.textContent = state;
    this.draftState.dataset['dirty'] = String(this.dirty);
    this.rows.replaceChildren(
      ...Object.entries(this.draft.allLinks).map(([id, link]) =>
        this.row(id, link),
      ),
    );
    if (Object.keys(this.draft.allLinks).length === 0)
      this.rows.append(
        h('tr', {}, [h('td', { colspan: '5', text: 'No links yet.' })]),
      );
  }

  private row(id: string, link: Link): HTMLTableRowElement {
    const edit = h('button', {
      type: 'button',
      text: 'Edit',
      'aria-label': `Edit link ${id}`,
    });
    edit.addEventListener('click', () => this.startEdit(id));
    const remove = h('button', {
      type: 'button',
      text: 'Delete',
      'aria-label': `Delete link ${id}`,
    });
    remove.addEventListener('click', () => this.deleteLink(id));
    return h('tr', { 'data-testid': 'link-row', 'data-link-id': id }, [
      h('td', { text: id }),
      h('td', { text: link.label ?? '' }),
      h('td', { text: link.url }),
      h('td', { text: (link.tags ?? []).join(', ') }),
      h('td', {}, [edit, ' ', remove]),
    ]);
  }

  private startEdit(id: string): void {
    const link = this.draft.allLinks[id];
    if (!link) return;
    this.editingId = id;
    setFieldValue(this.form, 'id', id);
    setFieldValue(this.form, 'label', link.label ?? '');
    setFieldValue(this.form, 'url', link.url);
    setFieldValue(this.form, 'tags', (link.tags ?? []).join(', '));
    this.legend.textContent = `Edit link ${id}`;
    this.submit.textContent = 'Update link';
    this.cancel.hidden = false;
    document.getElementById('link-label')?.focus();
  }

  private resetLinkForm(): void {
    this.editingId = null;
    this.form.reset();
    this.legend.textContent = 'Add a link';
    this.submit.textContent = 'Add link';
    this.cancel.hidden = true;
  }

  private applyLinkForm(): void {
    const id = fieldValue(this.form, 'id');
    const url = fieldValue(this.form, 'url');
    if (!id || !url) return;
    const label = fieldValue(this.form, 'label');
    const tags = fieldValue(this.form, 'tags')
      .split(',')
      .map((tag) => tag.trim())
      .filter((tag) => tag !== '');
    const previous =
      this.editingId === null ? undefined : this.draft.allLinks[this.editingId];
    // Keep fields this form does not show (description, hooks, …).
    const link: Link = { ...previous, url, tags };
    if (label) link.label = label;
    else delete link.label;
    if (tags.length === 0) delete link.tags;
    const links: Record<string, Link> = {};
    for (const [key, value] of Object.entries(this.draft.allLinks)) {
      if (key === this.editingId) links[id] = link;
      else if (key !== id) links[key] = value;
    }
    links[id] = link;
    this.draft = { ...this.draft, allLinks: links };
    this.markDirty();
    this.resetLinkForm();
    document.getElementById('link-id')?.focus();
  }

  private deleteLink(id: string): void {
    const links = { ...this.draft.allLinks };
    delete links[id];
    this.draft = { ...this.draft, allLinks: links };
    this.markDirty();
  }

  private markDirty(): void {
    this.dirty = true;
    this.render('Unsaved edits: press "Save config" to keep them.');
  }

  private async save(): Promise<void> {
    if (this.name === null) return;
    if (!(await this.actions.save(this.name, this.draft))) return;
    this.dirty = false;
    this.render('Saved in this browser.');
  }

  private async remove(): Promise<void> {
    if (this.name === null) return;
    if (!confirm(`Delete the config "${this.name}" with all its links?`))
      return;
    void (await this.actions.remove(this.name));
  }
}
