/**
 * The Menu order section: the stored order of `allLinks` is the order every menu shows, so a move changes
 * the draft's order of links (`movedOrder`, `withLinkOrder` of the shared link rules) and the person saves
 * it with the other edits, as one write. A merge patch cannot say a new order (it keeps members in their
 * place), so the store sends such a save as the whole config, with `If-Match` like any other save.
 */
import { movedOrder, withLinkOrder } from '@linkconfig/shared';
import type { LinkMove } from '@linkconfig/shared';
import { ORDER_PAGE } from '../state/duplicates-state.js';
import type { PageContext } from './page-context.js';

export class OrderActions {
  constructor(private readonly page: PageContext) {}

  /** The section was unfolded or folded. */
  show(shown: boolean): void {
    this.page.state.order.shown = shown;
  }

  /** Draws more rows. */
  more(): void {
    this.page.state.order.limit += ORDER_PAGE;
  }

  /** A drag of link `id` started (null: it ended). */
  drag(id: string | null): void {
    this.page.state.order.dragging = id;
  }

  /**
   * Moves link `id` of the open draft; focus stays on its row (`focusOn`: which of the row's controls),
   * and screen readers hear its new place.
   */
  move(id: string, move: LinkMove, focusOn = 'row'): void {
    const open = this.page.state.open;
    this.page.state.order.dragging = null;
    if (open === null) return;
    const links = this.page.raw(open.draft.allLinks);
    const ids = Object.keys(links);
    const order = movedOrder(ids, id, move);
    if (order === ids) {
      this.page.announce(`“${id}” cannot move that way.`);
      return;
    }
    open.draft = { ...open.draft, allLinks: withLinkOrder(links, order) };
    open.dirty = true;
    const place = order.indexOf(id) + 1;
    const limit = this.page.state.order.limit;
    if (place > limit) this.page.state.order.limit = place;
    this.page.focus(
      `[data-testid="order-row"][data-link-id="${CSS.escape(id)}"]${focusOn === 'row' ? '' : ` [data-move="${focusOn}"]`}`,
    );
    this.page.announce(
      `Moved “${id}” to place ${place} of ${order.length}. Save the config to keep the new order.`,
    );
    this.page.recheckExpression();
  }
}
