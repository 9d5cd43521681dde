/** The open config's links: a table (cards on narrow screens) and the form to add or edit one. */
import type { Link } from '@linkconfig/shared';
import { html, nothing } from 'lit-html';
import type { TemplateResult } from 'lit-html';
import { repeat } from 'lit-html/directives/repeat.js';
import type { Actions } from './actions.js';
import type { LinkFields } from './config-draft.js';
import { checkLinkId, checkTags, checkUrl } from './input-checks.js';
import type { AppState, OpenConfig } from './state.js';
import {
  field,
  safeLink,
  srOnly,
  tagChips,
  visibleProblem,
} from './view-parts.js';

/** The links section of the editor. */
export function linksView(
  open: OpenConfig,
  state: AppState,
  actions: Actions,
): TemplateResult {
  const entries = Object.entries(open.draft.allLinks);
  return html`<section class="section" aria-labelledby="links-heading">
    <h3 id="links-heading">
      Links <span class="count">${entries.length}</span>
    </h3>
    ${
      entries.length === 0
        ? html`<p class="empty" data-testid="no-links">
            No links yet: add the first one below.
          </p>`
        : html`<table class="links" data-testid="links-table">
            <caption class="visually-hidden">
              Links of ${open.name}
            </caption>
            <thead>
              <tr>
                <th scope="col">Id</th>
                <th scope="col">Label</th>
                <th scope="col">URL</th>
                <th scope="col">Tags</th>
                <th scope="col">
                  <span class="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody data-testid="links-body">
              ${repeat(
                entries,
                ([id]) => id,
                ([id, link]) => linkRow(id, link, { open, state, actions }),
              )}
            </tbody>
          </table>`
    }
    ${linkForm(state, actions)}
  </section>`;
}

function linkRow(
  id: string,
  link: Link,
  context: { open: OpenConfig; state: AppState; actions: Actions },
): TemplateResult {
  const { open, state, actions } = context;
  const editing = state.link.editing === id;
  return html`<tr
    data-testid="link-row"
    data-link-id=${id}
    tabindex="-1"
    ?data-target=${open.targetLinkId === id}
    ?data-editing=${editing}
  >
    <td class="cell-id"><span class="link-id" title=${id}>${id}</span></td>
    <td class="cell-label">${link.label ?? ''}</td>
    <td class="cell-url">${safeLink(link.url, link.url)}</td>
    <td class="cell-tags">${tagChips(link.tags)}</td>
    <td class="cell-actions">
      <div class="row-actions">
        <button
          type="button"
          class="button small ghost"
          @click=${() => actions.edit('link', id)}
        >
          Edit${srOnly(` link ${id}`)}
        </button>
        <button
          type="button"
          class="button small ghost danger"
          @click=${() => actions.removeEntry('link', id)}
        >
          Delete${srOnly(` link ${id}`)}
        </button>
      </div>
    </td>
  </tr>`;
}

function linkForm(state: AppState, actions: Actions): TemplateResult {
  const form = state.link;
  const editing = form.editing;
  const existing =
    state.open !== null &&
    form.values.id.trim() !== editing &&
    Object.hasOwn(state.open.draft.allLinks, form.values.id.trim());
  const input = (key: keyof LinkFields) => (value: string) =>
    actions.input('link', key, value);
  const idProblem = visibleProblem(form, 'id', checkLinkId);
  return html`<form
    class="entry-form"
    data-testid="link-form"
    novalidate
    @submit=${(event: Event) => {
      event.preventDefault();
      actions.submit('link');
    }}
  >
    <fieldset>
      <legend data-testid="link-form-legend">
        ${editing === null ? 'Add a link' : `Edit link ${editing}`}
      </legend>
      <div class="form-grid">
        ${field({
          id: 'link-id',
          label: 'Id',
          value: form.values.id,
          problem: idProblem,
          hint:
            idProblem === null && existing
              ? `A link “${form.values.id.trim()}” exists; you will be asked before it is replaced.`
              : undefined,
          onInput: input('id'),
        })}
        ${field({
          id: 'link-label',
          label: 'Label',
          value: form.values.label,
          onInput: input('label'),
        })}
        ${field({
          id: 'link-url',
          label: 'URL',
          kind: 'url',
          value: form.values.url,
          placeholder: 'https://',
          problem: visibleProblem(form, 'url', checkUrl),
          onInput: input('url'),
          className: 'wide',
        })}
        ${field({
          id: 'link-tags',
          label: 'Tags',
          value: form.values.tags,
          hint: 'Comma separated, such as car, classic',
          problem: visibleProblem(form, 'tags', checkTags),
          onInput: input('tags'),
          className: 'wide',
        })}
      </div>
      <div class="actions">
        <button type="submit" class="button" data-testid="link-submit">
          ${editing === null ? 'Add link' : 'Update link'}
        </button>
        ${
          editing === null
            ? nothing
            : html`<button
                type="button"
                class="button ghost"
                data-testid="link-cancel"
                @click=${() => actions.cancelEdit('link')}
              >
                Cancel edit
              </button>`
        }
      </div>
    </fieldset>
  </form>`;
}
