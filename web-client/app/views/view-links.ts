/**
 * The open config's links, made for finding: a filter box (label, URL, id, description, tags), the
 * tags of what is shown with their counts (press one to narrow to it), an order, and how many are
 * shown of how many. The table (cards on narrow screens) opens a link's form right under its row; the
 * form to add one sits under the list.
 */
import { html, nothing } from 'lit-html';
import type { TemplateResult } from 'lit-html';
import { repeat } from 'lit-html/directives/repeat.js';
import type { Actions } from './actions.js';
import { allTags, findLinks } from '../model/link-finder.js';
import type { Found } from '../model/link-finder.js';
import type { AppState, OpenConfig } from '../state/state.js';
import { writeRefusal } from '../state/status-model.js';
import { finder } from './view-link-finder.js';
import { facetCounts, inFacet } from '../model/link-health.js';
import { healthBar, healthRead, healthShown } from './view-link-health.js';
import { linkForm } from './view-link-form.js';
import { srOnly } from './view-parts.js';
import { bulkBar } from './view-link-bulk.js';
import { columnCount, linkRow, tableHead } from './view-link-row.js';

/** The links section of the editor. */
export function linksView(
  open: OpenConfig,
  state: AppState,
  actions: Actions,
): TemplateResult {
  const view = state.links;
  const links = open.draft.allLinks;
  const health = healthShown(state, open);
  const facet = health === null ? null : view.health;
  const found = findLinks(links, {
    text: view.filter,
    tags: view.tags,
    sort: view.sort,
    descending: view.descending,
    touched: view.touched,
    ...(facet === null || health === null
      ? {}
      : { keep: (id, link) => inFacet(facet, { id, link }, health) }),
  });
  const shown = shownIds(found, state, open);
  const readOnly = writeRefusal(state, open.name) !== null;
  const editing = readOnly ? null : state.link.editing;
  const context = {
    open,
    actions,
    readOnly,
    health,
    now: state.clock,
    selected: new Set(state.bulk.selection.ids),
    order: found.ids,
    cursor: state.bulk.cursor,
    cell: state.bulk.cell,
  };
  const row = (id: string, isEditing: boolean) =>
    linkRow(id, links[id], { ...context, editing: isEditing });
  return html`<section
    class="section links-section"
    aria-labelledby="links-heading"
  >
    <div class="links-head">
      <h3 id="links-heading" tabindex="-1">
        Links <span class="count">${found.total}</span>
      </h3>
      <span class="actions">
        <a class="button small ghost" href="#query-heading"
          >Test an expression</a
        >
        <a class="button small ghost" href="#link-add" data-testid="jump-add"
          >Add a link</a
        >
      </span>
    </div>
    ${found.total === 0 ? nothing : finder(found, state, actions)}
    ${
      found.total === 0 || healthRead(state, open) === null
        ? nothing
        : healthBar(state, actions, {
            open,
            counts: facetCounts(links, health ?? {}),
            readOnly,
          })
    }
    ${
      found.total === 0
        ? nothing
        : bulkBar(state, open, { actions, found: found.ids })
    }
    ${
      found.total === 0
        ? html`<p class="empty" data-testid="no-links">
            No links yet: add the first one below.
          </p>`
        : shown.length === 0
          ? html`<p class="empty" data-testid="no-matches">
              No link matches.
              <button
                type="button"
                class="button small"
                @click=${() => actions.findLinks({ clear: true })}
              >
                Show all links
              </button>
            </p>`
          : html`<table class="links" data-testid="links-table">
              <caption class="visually-hidden">
                Links of ${open.name}
              </caption>
              ${tableHead(state, actions, health !== null)}
              <tbody data-testid="links-body">
                ${repeat(
                  shown,
                  (id) => id,
                  (id) =>
                    id === editing
                      ? html`${row(id, true)}
                          <tr class="edit-row" data-testid="link-edit-row">
                            <td colspan=${columnCount(health !== null)}>
                              ${linkForm(state, actions, allTags(links))}
                            </td>
                          </tr>`
                      : row(id, false),
                )}
              </tbody>
            </table>`
    }
    ${
      found.ids.length > shown.length
        ? html`<button
            type="button"
            class="button small"
            data-testid="show-more-links"
            @click=${() => actions.findLinks({ more: true })}
          >
            Show more (${found.ids.length - shown.length} more)
          </button>`
        : nothing
    }
    <div id="link-add">
      ${
        editing === null && !readOnly
          ? linkForm(state, actions, allTags(links))
          : nothing
      }
    </div>
    ${undoToast(state, open, actions)}
  </section>`;
}

/** "Deleted … Undo", while the latest deletion can be undone. */
function undoToast(
  state: AppState,
  open: OpenConfig,
  actions: Actions,
): TemplateResult | typeof nothing {
  const offer = state.undo;
  if (offer === null || offer.configName !== open.name) return nothing;
  return html`<div
    class="toast"
    role="group"
    aria-label="Undo the deletion"
    data-testid="undo-toast"
  >
    <p>Deleted link <span class="link-id">${offer.id}</span>.</p>
    <button
      type="button"
      id="undo-delete"
      class="button small primary"
      @click=${() => actions.undoDelete()}
    >
      Undo${srOnly(` deleting link ${offer.id}`)}
    </button>
  </div>`;
}

/**
 * The ids to render: the first `limit` found, plus the link being edited and the one pointed at
 * (they stay in view whatever the filter says).
 */
function shownIds(found: Found, state: AppState, open: OpenConfig): string[] {
  const shown = found.ids.slice(0, state.links.limit);
  for (const keep of [state.link.editing, open.targetLinkId])
    if (
      keep !== null &&
      Object.hasOwn(open.draft.allLinks, keep) &&
      !shown.includes(keep)
    )
      shown.push(keep);
  return shown;
}
