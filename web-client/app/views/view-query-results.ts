/**
 * What the tested expression selects: how many links, a menu preview (the links as a page shows its
 * link menu: label as the link, description under it, in the list type the config's settings ask for)
 * and the plain list with ids and tags.
 */
import { sanitizeUrl } from '@linkconfig/shared';
import type { ResolvedLink } from '@linkconfig/shared';
import { html, nothing } from 'lit-html';
import type { TemplateResult } from 'lit-html';
import { ifDefined } from 'lit-html/directives/if-defined.js';
import { repeat } from 'lit-html/directives/repeat.js';
import type { LocalRun } from '../model/local-query.js';
import type { OpenConfig } from '../state/state.js';
import { safeLink, tagChips } from './view-parts.js';

/** How many results are rendered (the count says how many there are). */
const MAX_SHOWN = 50;

/** The results of the tested expression. */
export function resultsView(run: LocalRun, open: OpenConfig): TemplateResult {
  const { results } = run;
  const shown = results.slice(0, MAX_SHOWN);
  const more = results.length - shown.length;
  const count = `${results.length} ${results.length === 1 ? 'link matches' : 'links match'} `;
  const scope = ` in “${open.name}”${open.dirty ? ' (with unsaved edits)' : ''}.`;
  const cut = more > 0 ? ` The first ${MAX_SHOWN} are shown.` : '';
  return html`<p class="summary" data-testid="query-summary">
      ${count}<code>${run.expression.trim()}</code>${scope}${cut}
    </p>
    ${
      results.length === 0
        ? nothing
        : html`<details class="menu-preview-box" open>
              <summary>Menu preview</summary>
              ${menuPreview(shown, open)}
            </details>
            <details class="results-box" open>
              <summary>Ids and tags</summary>
              <ol class="results" data-testid="query-results">
                ${repeat(
                  shown,
                  (link) => link.id,
                  (link) =>
                    html`<li
                      class="result"
                      data-testid="query-result"
                      data-link-id=${link.id}
                    >
                      <span class="result-title"
                        >${safeLink(link.url, link.label ?? link.id)}</span
                      >
                      <span class="result-url">${link.url}</span>
                      <span class="result-meta"
                        ><code class="link-id">${link.id}</code>
                        ${tagChips(link.tags)}</span
                      >
                    </li>`,
                )}
              </ol>
            </details>`
    }`;
}

/** The links as a page would show its menu. */
function menuPreview(links: ResolvedLink[], open: OpenConfig): TemplateResult {
  const listType = open.draft.settings?.['listType'];
  const items = repeat(
    links,
    (link) => link.id,
    (link) => menuItem(link),
  );
  return html`<nav
    class="menu-preview"
    aria-label="Menu preview"
    data-testid="menu-preview"
  >
    ${
      listType === 'ol'
        ? html`<ol class="menu">
            ${items}
          </ol>`
        : html`<ul class="menu">
            ${items}
          </ul>`
    }
  </nav>`;
}

function menuItem(link: ResolvedLink): TemplateResult {
  const safe = sanitizeUrl(link.url);
  const text = link.label ?? link.id;
  const blocked = safe !== link.url || safe === 'about:blank';
  return html`<li data-testid="menu-item" data-link-id=${link.id}>
    ${
      blocked
        ? html`<span class="blocked-link"
            >${text} <span class="chip chip-bad">blocked link</span></span
          >`
        : html`<a
            href=${safe}
            target=${ifDefined(link.targetWindow)}
            rel="noopener noreferrer"
            >${text}</a
          >`
    }
    ${
      typeof link.description === 'string' && link.description !== ''
        ? html`<span class="menu-description">${link.description}</span>`
        : nothing
    }
  </li>`;
}
