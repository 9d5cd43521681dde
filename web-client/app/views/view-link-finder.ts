/**
 * Finding links: the filter box, the order, how many are shown of how many, and the tags of what is
 * found with their counts (press one to narrow to it).
 */
import { html, nothing } from 'lit-html';
import type { TemplateResult } from 'lit-html';
import { live } from 'lit-html/directives/live.js';
import type { Actions } from './actions.js';
import type { Found, LinkSort } from '../model/link-finder.js';
import type { AppState } from '../state/state.js';

/** How many tag facets show before "all tags". */
const TOP_TAGS = 12;

const SORTS: Record<LinkSort, string> = {
  config: 'As in the config',
  label: 'Label',
  id: 'Id',
  recent: 'Recently changed',
  url: 'URL',
  tags: 'Tags',
};

/** The filter box, the order, the count, and the tag facets. */
export function finder(
  found: Found,
  state: AppState,
  actions: Actions,
): TemplateResult {
  const view = state.links;
  const shown = Math.min(found.ids.length, view.limit);
  const facets = view.allTags ? found.facets : found.facets.slice(0, TOP_TAGS);
  // A chosen tag stays pressable even when no link found has it any more.
  const chosen = view.tags.filter(
    (tag) => !facets.some((facet) => facet.tag === tag),
  );
  const narrowed =
    view.filter.trim() !== '' || view.tags.length > 0 || view.health !== null;
  return html`<div class="finder" role="search" aria-label="Find links">
    <div class="finder-row">
      <div class="field finder-filter">
        <label for="link-filter">Filter links</label>
        <input
          id="link-filter"
          type="search"
          autocomplete="off"
          spellcheck="false"
          placeholder="label, URL, id, description or tag"
          aria-describedby="links-shown"
          .value=${live(view.filter)}
          @input=${(event: Event) =>
            actions.findLinks({
              filter: (event.target as HTMLInputElement).value,
            })}
        />
      </div>
      <div class="field finder-sort">
        <label for="link-sort">Order</label>
        <select
          id="link-sort"
          @change=${(event: Event) =>
            actions.findLinks({
              sort: (event.target as HTMLSelectElement).value as LinkSort,
            })}
        >
          ${Object.entries(SORTS).map(
            ([value, text]) =>
              html`<option value=${value} ?selected=${value === view.sort}>
                ${text}
              </option>`,
          )}
        </select>
      </div>
    </div>
    <p
      class="links-shown"
      id="links-shown"
      data-testid="links-shown"
      data-shown=${shown}
      data-found=${found.ids.length}
      data-total=${found.total}
      aria-live="polite"
    >
      ${shownText(shown, found)}
      ${
        narrowed
          ? html`<button
              type="button"
              class="button small ghost"
              @click=${() => actions.findLinks({ clear: true })}
            >
              Clear filter
            </button>`
          : nothing
      }
    </p>
    ${
      found.facets.length + chosen.length === 0
        ? nothing
        : html`<div
            class="facets"
            role="group"
            aria-label="Narrow to a tag"
            data-testid="tag-facets"
          >
            ${[...chosen.map((tag) => ({ tag, count: 0 })), ...facets].map(
              ({ tag, count }) =>
                html`<button
                  type="button"
                  class="facet"
                  data-testid="tag-facet"
                  data-tag=${tag}
                  aria-pressed=${view.tags.includes(tag) ? 'true' : 'false'}
                  @click=${() => actions.findLinks({ toggleTag: tag })}
                >
                  ${tag} <span class="facet-count">${count}</span>
                </button>`,
            )}
            ${
              found.facets.length > TOP_TAGS
                ? html`<button
                    type="button"
                    class="button small ghost"
                    @click=${() =>
                      actions.findLinks({ allTags: !view.allTags })}
                  >
                    ${
                      view.allTags
                        ? 'Fewer tags'
                        : `All ${found.facets.length} tags`
                    }
                  </button>`
                : nothing
            }
          </div>`
    }
  </div>`;
}

/** "Shown N of M": what is on screen against what the config has. */
function shownText(shown: number, found: Found): string {
  const all = `${found.total} ${found.total === 1 ? 'link' : 'links'}`;
  if (shown === found.total) return `Showing all ${all}.`;
  if (shown === found.ids.length || found.ids.length === found.total)
    return `Showing ${shown} of ${all}.`;
  return `Showing ${shown} of ${found.ids.length} found (${all} in all).`;
}
