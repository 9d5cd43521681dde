/**
 * The Menu order section: the links in their stored order, which is the order every menu shows. A link
 * moves by dragging its row, with its buttons (up, down, to the top, to the bottom), or with keys on its
 * focused row: Alt+↑ / Alt+↓ one place, Alt+Shift+↑ / Alt+Shift+↓ (or Alt+Home / Alt+End) to the top or
 * bottom. Moves change the draft;
 * "Save config" keeps them, as one write. Integer-like ids are listed first by JavaScript itself and
 * cannot move.
 */
import { html, nothing } from 'lit-html';
import { repeat } from 'lit-html/directives/repeat.js';
import type { TemplateResult } from 'lit-html';
import { foldedSection } from './view-parts.js';
import { isMovableId } from '@linkconfig/shared';
import type { LinkMove } from '@linkconfig/shared';
import type { Actions } from './actions.js';
import type { AppState, OpenConfig } from '../state/state.js';
import { writeRefusal } from '../state/status-model.js';

/** The keys of a focused row and the move each makes (with Alt). */
const ROW_KEYS: Readonly<Record<string, LinkMove>> = {
  ArrowUp: 'up',
  ArrowDown: 'down',
  Home: 'top',
  End: 'bottom',
};

/** With Alt+Shift: to the top or bottom (where a browser keeps Alt+Home for itself). */
const SHIFT_KEYS: Readonly<Record<string, LinkMove>> = {
  ArrowUp: 'top',
  ArrowDown: 'bottom',
};

/** The section, folded until asked for. */
export function orderView(
  open: OpenConfig,
  state: AppState,
  actions: Actions,
): TemplateResult {
  const order = state.order;
  return foldedSection({
    className: 'order-section',
    testId: 'order',
    title: 'Menu order',
    shown: order.shown,
    onShow: (shown) => actions.order.show(shown),
    body: () => body(open, state, actions),
  });
}

function body(
  open: OpenConfig,
  state: AppState,
  actions: Actions,
): TemplateResult {
  const readOnly = writeRefusal(state, open.name) !== null;
  const ids = Object.keys(open.draft.allLinks);
  const shownIds = ids.slice(0, state.order.limit);
  const fixed = ids.filter((id) => !isMovableId(id));
  return html`<p class="hint" id="order-hint">
      Menus list links in this order. Drag a row, use its buttons, or focus a
      row and press Alt+↑ / Alt+↓ (one place) or Alt+Shift+↑ / Alt+Shift+↓ (top,
      bottom). “Save config” keeps the new order.
    </p>
    ${
      fixed.length === 0
        ? nothing
        : html`<p class="hint" data-testid="order-fixed">
            Ids made of digits only
            (${fixed.slice(0, 5).join(', ')}${fixed.length > 5 ? ', …' : ''})
            always come first, smallest first: they cannot move.
          </p>`
    }
    <ol
      class="order-list"
      data-testid="order-list"
      aria-describedby="order-hint"
    >
      ${repeat(
        shownIds,
        (id) => id,
        (id, index) =>
          orderRow(id, {
            label: open.draft.allLinks[id]?.label ?? '',
            place: index + 1,
            count: ids.length,
            readOnly: readOnly || !isMovableId(id),
            dragging: state.order.dragging,
            actions,
          }),
      )}
    </ol>
    ${
      ids.length > shownIds.length
        ? html`<button
            type="button"
            class="button small"
            data-testid="order-more"
            @click=${() => actions.order.more()}
          >
            Show more (${shownIds.length} of ${ids.length})
          </button>`
        : nothing
    }`;
}

interface RowOptions {
  readonly label: string;
  readonly place: number;
  readonly count: number;
  readonly readOnly: boolean;
  readonly dragging: string | null;
  readonly actions: Actions;
}

function orderRow(id: string, options: RowOptions): TemplateResult {
  const { label, place, count, readOnly, dragging, actions } = options;
  const name = label === '' ? id : `${label} (${id})`;
  const button = (
    move: 'up' | 'down' | 'top' | 'bottom',
    text: string,
    words: string,
  ) =>
    html`<button
      type="button"
      class="button small"
      data-move=${move}
      aria-label=${`${words}: ${name}`}
      ?disabled=${readOnly}
      @click=${() => actions.order.move(id, move, move)}
    >
      ${text}
    </button>`;
  return html`<li
    class="order-row ${dragging === id ? 'dragging' : ''}"
    data-testid="order-row"
    data-link-id=${id}
    tabindex="0"
    draggable=${readOnly ? 'false' : 'true'}
    aria-label=${`${name}, place ${place} of ${count}`}
    @keydown=${(event: KeyboardEvent) => {
      const move = event.shiftKey ? SHIFT_KEYS[event.key] : ROW_KEYS[event.key];
      if (!event.altKey || move === undefined || readOnly) return;
      if (event.target !== event.currentTarget) return;
      event.preventDefault();
      actions.order.move(id, move);
    }}
    @dragstart=${(event: DragEvent) => {
      event.dataTransfer?.setData('text/plain', id);
      if (event.dataTransfer) event.dataTransfer.effectAllowed = 'move';
      actions.order.drag(id);
    }}
    @dragend=${() => actions.order.drag(null)}
    @dragover=${(event: DragEvent) => {
      if (!readOnly) event.preventDefault();
    }}
    @drop=${(event: DragEvent) => {
      event.preventDefault();
      const from = event.dataTransfer?.getData('text/plain') || dragging;
      if (!from || from === id || readOnly) return;
      const box = (event.currentTarget as HTMLElement).getBoundingClientRect();
      const after = event.clientY > box.top + box.height / 2;
      actions.order.move(from, { to: id, after });
    }}
  >
    <span class="order-grip" aria-hidden="true">⠿</span>
    <span class="order-place">${place}</span>
    <span class="order-name">${name}</span>
    <span class="order-buttons">
      ${button('top', 'Top', 'Move to the top')}
      ${button('up', 'Up', 'Move up')} ${button('down', 'Down', 'Move down')}
      ${button('bottom', 'Bottom', 'Move to the bottom')}
    </span>
  </li>`;
}
