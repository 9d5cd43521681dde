/**
 * The rest of a config: macros, search patterns and settings (as JSON), each in a section that can be
 * folded away, with the same checks as the server and the expression engine.
 */
import type { SearchPattern } from '@linkconfig/shared';
import { html, nothing } from 'lit-html';
import type { TemplateResult } from 'lit-html';
import { repeat } from 'lit-html/directives/repeat.js';
import type { Actions, SectionForm } from './actions.js';
import { patternFields } from '../model/config-draft.js';
import type { PatternFields } from '../model/config-draft.js';
import {
  checkMacroExpression,
  checkMacroName,
  checkPattern,
  checkPatternFields,
  checkPatternKey,
  checkPatternLimit,
} from '../model/input-checks.js';
import type { AppState, MacroFields, OpenConfig } from '../state/state.js';
import { field, formButtons, srOnly, visibleProblem } from './view-parts.js';

/** How a search pattern's `sort` option reads. */
const SORTS: Record<string, string> = {
  '': 'in config order',
  alpha: 'by id',
  newest: 'newest first',
  oldest: 'oldest first',
};

/** Macros, search patterns and settings of the open config. */
export function extrasView(
  open: OpenConfig,
  state: AppState,
  actions: Actions,
): TemplateResult {
  return html`${macrosView(open, state, actions)}
  ${patternsView(open, state, actions)} ${settingsView(open, actions)}`;
}

function macrosView(
  open: OpenConfig,
  state: AppState,
  actions: Actions,
): TemplateResult {
  const macros = Object.entries(open.draft.macros ?? {});
  const form = state.macro;
  const input = (key: keyof MacroFields) => (value: string) =>
    actions.input('macro', key, value);
  return html`<details class="section fold" data-testid="macros">
    <summary>
      <h3>Macros <span class="count">${macros.length}</span></h3>
    </summary>
    <p class="hint">
      A macro is a name for part of an expression: <code>@name</code> is
      replaced by its text before the expression runs.
    </p>
    ${
      macros.length === 0
        ? html`<p class="empty">No macros yet.</p>`
        : html`<ul class="entries">
            ${repeat(
              macros,
              ([name]) => name,
              ([name, macro]) =>
                entryItem({
                  form: 'macro',
                  key: name,
                  title: html`<code>@${name}</code>`,
                  detail: html`<code>${macro.linkItems}</code>`,
                  actions,
                }),
            )}
          </ul>`
    }
    <form
      class="entry-form"
      novalidate
      data-testid="macro-form"
      @submit=${(event: Event) => {
        event.preventDefault();
        actions.submit('macro');
      }}
    >
      <fieldset>
        <legend>
          ${
            form.editing === null
              ? 'Add a macro'
              : `Edit macro @${form.editing}`
          }
        </legend>
        <div class="form-grid">
          ${field({
            id: 'macro-name',
            label: 'Macro name',
            value: form.values.name,
            problem: visibleProblem(form, 'name', checkMacroName),
            hint: 'Used as @name',
            onInput: input('name'),
          })}
          ${field({
            id: 'macro-expression',
            label: 'Macro expression',
            value: form.values.expression,
            placeholder: '.nyc + .bridge',
            problem: visibleProblem(form, 'expression', checkMacroExpression),
            onInput: input('expression'),
            className: 'wide',
          })}
        </div>
        ${formButtons({
          noun: 'macro',
          editing: form.editing,
          onCancel: () => actions.cancelEdit('macro'),
        })}
      </fieldset>
    </form>
  </details>`;
}

function patternsView(
  open: OpenConfig,
  state: AppState,
  actions: Actions,
): TemplateResult {
  const patterns = Object.entries(open.draft.searchPatterns ?? {});
  const form = state.pattern;
  const input = (key: keyof PatternFields) => (value: string) =>
    actions.input('pattern', key, value);
  return html`<details class="section fold" data-testid="search-patterns">
    <summary>
      <h3>Search patterns <span class="count">${patterns.length}</span></h3>
    </summary>
    <p class="hint">
      A search pattern is a stored regular expression: <code>/key/</code> in an
      expression finds the links it matches.
    </p>
    ${
      patterns.length === 0
        ? html`<p class="empty">No search patterns yet.</p>`
        : html`<ul class="entries">
            ${repeat(
              patterns,
              ([key]) => key,
              ([key, pattern]) =>
                entryItem({
                  form: 'pattern',
                  key,
                  title: html`<code>/${key}/</code>`,
                  detail: describePattern(pattern),
                  actions,
                }),
            )}
          </ul>`
    }
    <form
      class="entry-form"
      novalidate
      data-testid="pattern-form"
      @submit=${(event: Event) => {
        event.preventDefault();
        actions.submit('pattern');
      }}
    >
      <fieldset>
        <legend>
          ${
            form.editing === null
              ? 'Add a search pattern'
              : `Edit search pattern /${form.editing}/`
          }
        </legend>
        <div class="form-grid">
          ${field({
            id: 'pattern-key',
            label: 'Pattern key',
            value: form.values.key,
            hint: 'Used as /key/',
            problem: visibleProblem(form, 'key', checkPatternKey),
            onInput: input('key'),
          })}
          ${field({
            id: 'pattern-regex',
            label: 'Regular expression',
            value: form.values.pattern,
            placeholder: 'bridge',
            problem: visibleProblem(form, 'pattern', checkPattern),
            onInput: input('pattern'),
          })}
          ${field({
            id: 'pattern-fields',
            label: 'Fields',
            value: form.values.fields,
            hint: 'l label, u URL, t tags, d description, k id; empty for all',
            problem: checkPatternFields(form.values.fields),
            onInput: input('fields'),
          })}
          <div class="field">
            <label for="pattern-sort">Sort</label>
            <select
              id="pattern-sort"
              .value=${form.values.sort}
              @change=${(event: Event) =>
                actions.input(
                  'pattern',
                  'sort',
                  (event.target as HTMLSelectElement).value,
                )}
            >
              ${Object.entries(SORTS).map(
                ([value, text]) =>
                  html`<option
                    value=${value}
                    ?selected=${value === form.values.sort}
                  >
                    ${text}
                  </option>`,
              )}
            </select>
          </div>
          ${field({
            id: 'pattern-limit',
            label: 'Limit',
            value: form.values.limit,
            hint: 'Most results; empty for 100',
            problem: checkPatternLimit(form.values.limit),
            onInput: input('limit'),
          })}
        </div>
        ${formButtons({
          noun: 'pattern',
          editing: form.editing,
          onCancel: () => actions.cancelEdit('pattern'),
        })}
      </fieldset>
    </form>
  </details>`;
}

function describePattern(pattern: SearchPattern): TemplateResult {
  const parts = patternFields('', pattern);
  const extras = [
    parts.fields ? `fields ${parts.fields}` : '',
    parts.sort ? `sorted ${SORTS[parts.sort] ?? parts.sort}` : '',
    parts.limit ? `at most ${parts.limit}` : '',
  ].filter(Boolean);
  return html`<code>${parts.pattern}</code>${
      extras.length > 0
        ? html` <span class="muted">(${extras.join(', ')})</span>`
        : nothing
    }`;
}

function settingsView(open: OpenConfig, actions: Actions): TemplateResult {
  return html`<details class="section fold" data-testid="settings">
    <summary><h3>Settings</h3></summary>
    <p class="hint">
      Settings are kept with the config for the apps that use it; the service
      itself does not read them.
    </p>
    ${field({
      id: 'settings-json',
      label: 'Settings (JSON)',
      kind: 'multiline',
      value: open.settingsText,
      problem: open.settingsProblem,
      hint: 'A JSON object, such as {"listType": "ul"}; empty for none.',
      onInput: (text) => actions.settingsInput(text),
      testId: 'settings-json',
    })}
  </details>`;
}

function entryItem(options: {
  form: SectionForm;
  key: string;
  title: TemplateResult;
  detail: TemplateResult;
  actions: Actions;
}): TemplateResult {
  const { form, key, actions } = options;
  const what = form === 'macro' ? `macro ${key}` : `search pattern ${key}`;
  return html`<li class="entry" data-key=${key}>
    <span class="entry-title">${options.title}</span>
    <span class="entry-detail">${options.detail}</span>
    <span class="row-actions">
      <button
        type="button"
        class="button small ghost"
        @click=${() => actions.edit(form, key)}
      >
        Edit${srOnly(` ${what}`)}
      </button>
      <button
        type="button"
        class="button small ghost danger"
        @click=${() => actions.removeEntry(form, key)}
      >
        Delete${srOnly(` ${what}`)}
      </button>
    </span>
  </li>`;
}
