/**
 * What the links list and the link form ask beyond the common form handling: narrowing and ordering
 * the list, the form's other fields (name/value pairs), completing a tag, and deleting a link with a
 * moment to undo it.
 */
import { sameValue } from '@linkconfig/shared';
import type { Link } from '@linkconfig/shared';
import type { ExtraChange, FindChange } from '../views/actions.js';
import { removeLink } from '../model/config-draft.js';
import { changeDraft } from './form-actions.js';
import type { PageContext } from './page-context.js';
import { emptyForm, LINKS_PAGE, NO_LINK } from '../state/state.js';

/** How long "Undo" is offered after a link is deleted (longer while it has the focus). */
export const UNDO_MS = 10_000;

/** The Undo button of the latest deletion. */
const UNDO_BUTTON = '#undo-delete';

/** The links list and the link form's extra parts. */
export class LinkActions {
  private undoTimer: ReturnType<typeof setTimeout> | null = null;

  constructor(private readonly page: PageContext) {}

  /**
   * Deletes link `id` from the draft and offers to undo it for a few seconds. Focus goes to the Undo
   * button (pressing Enter again undoes rather than deleting the next link).
   */
  remove(id: string): void {
    const { state } = this.page;
    const open = state.open;
    const link = open?.draft.allLinks[id];
    if (!open || link === undefined) return;
    const index = Object.keys(open.draft.allLinks).indexOf(id);
    changeDraft(open, removeLink(open.draft, id));
    if (state.link.editing === id) state.link = emptyForm(NO_LINK);
    state.undo = {
      configName: open.name,
      id,
      link: structuredClone(this.page.raw(link)),
      index,
    };
    this.armUndo();
    this.page.focus(UNDO_BUTTON);
    this.page.announce(
      `Deleted link “${id}” from the draft. Undo is offered for ${UNDO_MS / 1000} seconds.`,
    );
  }

  /** Puts the link deleted last back where it was. */
  undo(): void {
    const { state } = this.page;
    const offer = state.undo;
    const open = state.open;
    this.endUndo();
    if (!offer || open?.name !== offer.configName) return;
    if (Object.hasOwn(open.draft.allLinks, offer.id)) {
      this.page.announce(
        `A link “${offer.id}” exists again, so the deleted one was not put back.`,
      );
      return;
    }
    const entries = Object.entries(open.draft.allLinks);
    entries.splice(offer.index, 0, [offer.id, offer.link as Link]);
    changeDraft(open, { ...open.draft, allLinks: Object.fromEntries(entries) });
    // Back to the saved version: nothing is unsaved any more.
    const base = this.page.session()?.store.editBase(open.name);
    if (base !== undefined && sameValue(this.page.raw(open.draft), base))
      open.dirty = false;
    this.page.focus(
      `[data-testid="link-row"][data-link-id="${CSS.escape(offer.id)}"] [data-testid="edit-link"]`,
    );
    this.page.announce(`Link “${offer.id}” is back.`);
  }

  /** Ends the undo offer after a while; not while its button has the focus. */
  private armUndo(): void {
    if (this.undoTimer !== null) clearTimeout(this.undoTimer);
    this.undoTimer = setTimeout(() => {
      if (document.activeElement?.closest('[data-testid="undo-toast"]')) {
        this.armUndo();
        return;
      }
      this.endUndo();
    }, UNDO_MS);
  }

  private endUndo(): void {
    if (this.undoTimer !== null) clearTimeout(this.undoTimer);
    this.undoTimer = null;
    this.page.state.undo = null;
  }

  /** Narrows, orders or widens the links list. */
  find(change: FindChange): void {
    const view = this.page.state.links;
    if ('filter' in change) {
      view.filter = change.filter;
      view.limit = LINKS_PAGE;
    } else if ('toggleTag' in change) {
      const tag = change.toggleTag;
      view.tags = view.tags.includes(tag)
        ? view.tags.filter((t) => t !== tag)
        : [...view.tags, tag];
      view.limit = LINKS_PAGE;
    } else if ('toggleHealth' in change) {
      view.health =
        view.health === change.toggleHealth ? null : change.toggleHealth;
      view.limit = LINKS_PAGE;
    } else if ('sort' in change) {
      view.sort = change.sort;
      view.descending = false;
    } else if ('column' in change) {
      view.descending = view.sort === change.column && !view.descending;
      view.sort = change.column;
    } else if ('more' in change) view.limit += LINKS_PAGE;
    else if ('allTags' in change) view.allTags = change.allTags;
    else {
      view.filter = '';
      view.tags = [];
      view.health = null;
      view.limit = LINKS_PAGE;
      this.page.focus('#link-filter');
    }
  }

  /** Adds, changes or removes one of the link form's other fields. */
  extra(change: ExtraChange): void {
    const form = this.page.state.link;
    const extras = [...(form.values.extras ?? [])];
    if ('add' in change) {
      extras.push({ key: '', value: '', json: false });
      this.page.focus(`#extra-key-${extras.length - 1}`);
    } else if ('remove' in change) {
      extras.splice(change.remove, 1);
      this.page.focus('[data-testid="add-extra"]');
    } else {
      const current = extras[change.index];
      if (current === undefined) return;
      extras[change.index] = {
        ...current,
        key: change.key ?? current.key,
        value: change.value ?? current.value,
      };
    }
    form.values = { ...form.values, extras };
  }

  /** Puts `tag` in place of the tag being typed in the link form, ready for the next one. */
  completeTag(tag: string): void {
    const form = this.page.state.link;
    const parts = form.values.tags.split(',');
    parts[parts.length - 1] = ` ${tag}`;
    const tags = `${parts.join(',').trim()}, `;
    form.values = { ...form.values, tags };
    this.page.focus('#link-tags');
  }
}
