/**
 * The link form: adding a link (under the list) or editing one (right under its row, so the row stays
 * in view). Every field of a link is here: id, label, URL, tags (completed from the config's tags),
 * description, and any other field as a name/value pair. On small screens its buttons stay at the
 * bottom of the screen while it is open.
 */
import { html, nothing } from 'lit-html';
import type { TemplateResult } from 'lit-html';
import { live } from 'lit-html/directives/live.js';
import type { Actions } from './actions.js';
import { suggestedLinkId } from '../model/config-draft.js';
import type { LinkFields } from '../model/config-draft.js';
import {
  checkLinkId,
  checkTags,
  checkUrl,
  storedTagsNote,
} from '../model/input-checks.js';
import { parseExtras } from '../model/link-extras.js';
import type { ExtraField } from '../model/link-extras.js';
import type { AppState } from '../state/state.js';
import { field, formButtons, srOnly, visibleProblem } from './view-parts.js';

/** How many completions are offered for the tag being typed. */
const MAX_COMPLETIONS = 6;

/** The tags of `known` that complete the last tag typed in `text` (not already given). */
export function tagCompletions(
  text: string,
  known: readonly string[],
): string[] {
  const parts = text.split(',');
  const typed = (parts.at(-1) ?? '').trim();
  if (typed === '') return [];
  const given = new Set(parts.slice(0, -1).map((part) => part.trim()));
  const lower = typed.toLowerCase();
  const starts: string[] = [];
  const contains: string[] = [];
  for (const tag of known) {
    if (tag === typed || given.has(tag)) continue;
    const at = tag.toLowerCase().indexOf(lower);
    if (at === 0) starts.push(tag);
    else if (at > 0) contains.push(tag);
  }
  return [...starts, ...contains].slice(0, MAX_COMPLETIONS);
}

/**
 * Which links of the draft already have the URL typed (the shared rule of duplicates, looked up a moment
 * after typing stops), in words; undefined when none.
 */
function urlWarning(state: AppState): string | undefined {
  const warning = state.duplicates.urlWarning;
  const open = state.open;
  if (warning === null || open === null) return undefined;
  if (warning.url !== state.link.values.url.trim()) return undefined;
  const ids = warning.ids.filter(
    (id) => id !== state.link.editing && Object.hasOwn(open.draft.allLinks, id),
  );
  if (ids.length === 0) return undefined;
  const named = ids
    .slice(0, 3)
    .map((id) => `“${id}”`)
    .join(', ');
  const more = ids.length > 3 ? ` and ${ids.length - 3} more` : '';
  return `This URL is already in this config: ${named}${more} (tracking parameters, www. and a trailing slash aside).`;
}

/** The link form; `tags` are the config's tags, for completion. */
export function linkForm(
  state: AppState,
  actions: Actions,
  tags: readonly string[],
): TemplateResult {
  const form = state.link;
  const editing = form.editing;
  const existing =
    state.open !== null &&
    form.values.id.trim() !== editing &&
    Object.hasOwn(state.open.draft.allLinks, form.values.id.trim());
  const input =
    (key: 'id' | 'label' | 'url' | 'tags' | 'description') => (value: string) =>
      actions.input('link', key, value);
  const idProblem = visibleProblem(form, 'id', checkLinkId);
  const derived =
    editing === null &&
    state.open !== null &&
    form.values.id !== '' &&
    form.values.id === suggestedLinkId(form.values, state.open.draft);
  const completions = tagCompletions(form.values.tags, tags);
  return html`<form
    class="entry-form link-form"
    data-testid="link-form"
    data-mode=${editing === null ? 'add' : 'edit'}
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
              : idProblem === null && derived
                ? 'Made from the label, as an import names links; type another id to change it.'
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
          hint: urlWarning(state),
          onInput: input('url'),
          className: 'wide',
        })}
        <div class="wide tags-field">
          ${field({
            id: 'link-tags',
            label: 'Tags',
            value: form.values.tags,
            hint:
              storedTagsNote(form.values.tags) ??
              'Comma separated, such as car, classic. Stored lower-case, other characters as _.',
            problem: visibleProblem(form, 'tags', checkTags),
            onInput: input('tags'),
          })}
          ${
            completions.length === 0
              ? nothing
              : html`<div
                  class="completions"
                  role="group"
                  aria-label="Tags of this config"
                  data-testid="tag-completions"
                >
                  ${completions.map(
                    (tag) =>
                      html`<button
                        type="button"
                        class="chip chip-button"
                        @click=${() => actions.completeTag(tag)}
                      >
                        ${srOnly('Use tag ')}${tag}
                      </button>`,
                  )}
                </div>`
          }
        </div>
        ${field({
          id: 'link-description',
          label: 'Description',
          kind: 'multiline',
          value: form.values.description ?? '',
          onInput: input('description'),
          className: 'wide',
          rows: 2,
        })}
        ${extrasEditor(form.values, form.submitted, actions)}
      </div>
      ${formButtons({
        noun: 'link',
        editing,
        onCancel: () => actions.cancelEdit('link'),
        primary: true,
      })}
    </fieldset>
  </form>`;
}

/** The other fields of the link: a name and a value each, with a button to add one. */
function extrasEditor(
  values: LinkFields,
  submitted: boolean,
  actions: Actions,
): TemplateResult {
  const extras: readonly ExtraField[] = values.extras ?? [];
  const parsed = parseExtras(extras);
  const problem = parsed.ok ? null : parsed;
  return html`<fieldset class="wide extras" data-testid="link-extras">
    <legend>Other fields</legend>
    ${
      extras.length === 0
        ? html`<p class="hint">
            This link has no other fields. Apps may read more, such as cssClass
            or targetWindow.
          </p>`
        : html`<p class="hint" id="extras-hint">
            Text as it is; a value starting with [ or { is read as JSON.
          </p>`
    }
    ${extras.map((extra, index) => {
      const keyProblem =
        problem?.index === index &&
        problem.part === 'key' &&
        (submitted || extra.key.trim() !== '')
          ? problem.problem
          : null;
      const valueProblem =
        problem?.index === index && problem.part === 'value'
          ? problem.problem
          : null;
      return html`<div class="extra-row" data-testid="link-extra">
        ${extraInput({
          id: `extra-key-${index}`,
          label: 'Field name',
          value: extra.key,
          problem: keyProblem,
          onInput: (key) => actions.linkExtra({ index, key }),
        })}
        ${extraInput({
          id: `extra-value-${index}`,
          label: extra.key.trim() === '' ? 'Value' : `Value of ${extra.key}`,
          value: extra.value,
          problem: valueProblem,
          onInput: (value) => actions.linkExtra({ index, value }),
        })}
        <button
          type="button"
          class="button small ghost danger"
          @click=${() => actions.linkExtra({ remove: index })}
        >
          Remove${srOnly(` field ${extra.key || index + 1}`)}
        </button>
      </div>`;
    })}
    <button
      type="button"
      class="button small"
      data-testid="add-extra"
      @click=${() => actions.linkExtra({ add: true })}
    >
      Add a field
    </button>
  </fieldset>`;
}

function extraInput(options: {
  id: string;
  label: string;
  value: string;
  problem: string | null;
  onInput(value: string): void;
}): TemplateResult {
  const { id, problem } = options;
  return html`<div class="field">
    <label for=${id}>${options.label}</label>
    <input
      id=${id}
      autocomplete="off"
      autocapitalize="off"
      spellcheck="false"
      aria-invalid=${problem ? 'true' : 'false'}
      aria-describedby=${problem ? `${id}-problem` : nothing}
      .value=${live(options.value)}
      @input=${(event: Event) =>
        options.onInput((event.target as HTMLInputElement).value)}
    />
    ${
      problem
        ? html`<p class="problem" id="${id}-problem">${problem}</p>`
        : nothing
    }
  </div>`;
}
