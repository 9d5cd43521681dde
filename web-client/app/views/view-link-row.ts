/**
 * One row of the links table: its checkbox (Shift extends a range), id, label, URL, tags and health,
 * each of label, URL and tags editable in place (✎), and Edit / Delete. The table's head sorts the view
 * by a column (press again to turn the order around); the stored order stays as it is.
 */
import type { Link } from '@linkconfig/shared';
import { html, nothing } from 'lit-html';
import type { TemplateResult } from 'lit-html';
import { live } from 'lit-html/directives/live.js';
import type { Actions } from './actions.js';
import { OWN_FIELDS } from '../model/link-extras.js';
import type { LinkSort } from '../model/link-finder.js';
import type { HealthById } from '../model/link-health.js';
import type { CellEdit } from '../state/bulk-state.js';
import type { AppState, OpenConfig } from '../state/state.js';
import { rowHealth } from './view-link-health.js';
import { safeLink, srOnly, tagChips } from './view-parts.js';

/** What every row of one render shares. */
export interface RowContext {
  open: OpenConfig;
  actions: Actions;
  readOnly: boolean;
  /** The health of the links (null: none to show). */
  health: HealthById | null;
  now: number;
  /** The selected ids. */
  selected: ReadonlySet<string>;
  /** The ids found, in the order shown (for a shift-click range). */
  order: readonly string[];
  cursor: string | null;
  cell: CellEdit | null;
}

/** The columns that sort the view, with their words. */
const SORTABLE: [LinkSort, string][] = [
  ['id', 'Id'],
  ['label', 'Label'],
  ['url', 'URL'],
  ['tags', 'Tags'],
];

/** The table's head: the sortable columns, health when it is shown. */
export function tableHead(
  state: AppState,
  actions: Actions,
  withHealth: boolean,
): TemplateResult {
  const view = state.links;
  return html`<thead>
    <tr>
      <th scope="col" class="cell-select">
        <span class="visually-hidden">Selected</span>
      </th>
      ${SORTABLE.map(([column, words]) => {
        const sorted = view.sort === column;
        return html`<th
          scope="col"
          class="cell-${column}"
          aria-sort=${sorted ? (view.descending ? 'descending' : 'ascending') : 'none'}
        >
          <button
            type="button"
            class="sort-button"
            data-testid="sort-${column}"
            @click=${() => actions.findLinks({ column })}
          >
            ${words}<span aria-hidden="true" class="sort-mark"
              >${sorted ? (view.descending ? ' ▼' : ' ▲') : ''}</span
            >
          </button>
        </th>`;
      })}
      ${withHealth ? html`<th scope="col" class="cell-health">Health</th>` : nothing}
      <th scope="col" class="cell-actions">
        <span class="visually-hidden">Actions</span>
      </th>
    </tr>
  </thead>`;
}

/** How many columns a row has (the edit row spans them). */
export function columnCount(withHealth: boolean): number {
  return withHealth ? 7 : 6;
}

export function linkRow(
  id: string,
  link: Link | undefined,
  context: RowContext & { editing: boolean },
): TemplateResult {
  const { open, actions, editing, readOnly } = context;
  if (link === undefined) return html``;
  const description =
    typeof link.description === 'string' ? link.description : '';
  const others = Object.keys(link).filter(
    (key) => !OWN_FIELDS.includes(key),
  ).length;
  const selected = context.selected.has(id);
  return html`<tr
    data-testid="link-row"
    data-link-id=${id}
    tabindex="-1"
    ?data-target=${open.targetLinkId === id}
    ?data-editing=${editing}
    ?data-selected=${selected}
    ?data-cursor=${context.cursor === id}
  >
    <td class="cell-select">
      <input
        type="checkbox"
        data-testid="select-link"
        aria-label=${`Select link ${id}`}
        .checked=${live(selected)}
        @click=${(event: MouseEvent) =>
          actions.bulk.select(id, {
            range: event.shiftKey,
            order: context.order,
          })}
      />
    </td>
    <td class="cell-id"><span class="link-id" title=${id}>${id}</span></td>
    <td class="cell-label" title=${description === '' ? nothing : description}>
      ${cell([id, 'label'], link.label ?? '', context)}
      ${
        description === ''
          ? nothing
          : html`<span class="link-description" data-testid="link-description"
              >${description}</span
            >`
      }
      ${
        others === 0
          ? nothing
          : html`<span class="muted link-others"
              >${others} other ${others === 1 ? 'field' : 'fields'}</span
            >`
      }
    </td>
    <td class="cell-url">
      ${cell([id, 'url'], safeLink(link.url, link.url), context)}
    </td>
    <td class="cell-tags">
      ${cell([id, 'tags'], tagChips(link.tags), context)}
    </td>
    ${
      context.health === null
        ? nothing
        : html`<td class="cell-health">
            ${rowHealth({ id, link }, context.health, {
              actions,
              readOnly,
              now: context.now,
            })}
          </td>`
    }
    <td class="cell-actions">
      <div class="row-actions">
        <button
          type="button"
          class="button small ghost"
          data-testid="edit-link"
          ?disabled=${readOnly}
          aria-expanded=${editing ? 'true' : 'false'}
          @click=${() =>
            editing ? actions.cancelEdit('link') : actions.edit('link', id)}
        >
          Edit${srOnly(` link ${id}`)}
        </button>
        <button
          type="button"
          class="button small ghost danger"
          data-testid="delete-link"
          ?disabled=${readOnly}
          @click=${() => actions.removeEntry('link', id)}
        >
          Delete${srOnly(` link ${id}`)}
        </button>
      </div>
    </td>
  </tr>`;
}

const FIELD_WORDS = { label: 'label', url: 'URL', tags: 'tags' } as const;

/** A cell's content with its ✎ button, or its field while it is edited in place. */
function cell(
  [id, field]: [id: string, field: CellEdit['field']],
  shown: TemplateResult | string | typeof nothing,
  context: RowContext,
): TemplateResult {
  const editing = context.cell;
  const { actions } = context;
  if (editing !== null && editing.id === id && editing.field === field)
    return html`<span class="cell-editor" data-testid="cell-editor">
      <input
        id="cell-input"
        class=${editing.problem === null ? '' : 'invalid'}
        aria-label=${`The ${FIELD_WORDS[field]} of link ${id}`}
        aria-invalid=${editing.problem === null ? 'false' : 'true'}
        aria-describedby="cell-problem"
        autocomplete="off"
        spellcheck="false"
        .value=${live(editing.value)}
        @input=${(event: Event) =>
          actions.table.cellInput((event.target as HTMLInputElement).value)}
        @keydown=${(event: KeyboardEvent) => {
          if (event.key !== 'Enter') return;
          event.preventDefault();
          actions.table.commitCell();
        }}
      />
      <button
        type="button"
        class="button small primary"
        data-testid="cell-ok"
        @click=${() => actions.table.commitCell()}
      >
        OK
      </button>
      <button
        type="button"
        class="button small ghost"
        @click=${() => actions.table.cancelCell()}
      >
        Cancel
      </button>
      <span id="cell-problem" class="problem" role="alert"
        >${editing.problem ?? ''}</span
      >
    </span>`;
  return html`${shown}${
    context.readOnly
      ? nothing
      : html`<button
          type="button"
          class="cell-edit"
          data-cell-edit=${field}
          aria-label=${`Edit the ${FIELD_WORDS[field]} of link ${id}`}
          title=${`Edit the ${FIELD_WORDS[field]} here`}
          @click=${() => actions.table.startCell(id, field)}
        >
          ✎
        </button>`
  }`;
}
