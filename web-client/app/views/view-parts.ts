/** Small view pieces shared by the page's sections: form fields, tag chips, safe links. */
import { sanitizeUrl } from '@linkconfig/shared';
import { html, nothing } from 'lit-html';
import type { TemplateResult } from 'lit-html';
import { ifDefined } from 'lit-html/directives/if-defined.js';
import { live } from 'lit-html/directives/live.js';
import type { InputProblem } from '../model/input-checks.js';
import type { FormState } from '../state/state.js';

/** What {@link field} renders. */
export interface FieldOptions {
  id: string;
  label: string;
  value: string;
  /** Shown beside the field (and marks it invalid). */
  problem?: InputProblem;
  /** A short help text under the field. */
  hint?: string;
  onInput(value: string): void;
  /** `password` hides the text; the rest are plain text with a keyboard hint. */
  kind?: 'text' | 'url' | 'password' | 'multiline';
  placeholder?: string;
  required?: boolean;
  /** Extra class for the wrapper (e.g. `wide` to span the form's columns). */
  className?: string;
  testId?: string;
  /** Lines of a multiline field (default 6). */
  rows?: number;
}

/**
 * A labelled input with its hint and problem below it, tied together with `aria-describedby`. The
 * value is bound with `live`, so the page can clear it while the person's typing is never undone.
 */
export function field(options: FieldOptions): TemplateResult {
  const { id, problem, hint } = options;
  const described =
    [hint ? `${id}-hint` : '', problem ? `${id}-problem` : '']
      .filter(Boolean)
      .join(' ') || undefined;
  const onInput = (event: Event) =>
    options.onInput(
      (event.target as HTMLInputElement | HTMLTextAreaElement).value,
    );
  const common = {
    invalid: problem ? 'true' : undefined,
    described,
  };
  const control =
    options.kind === 'multiline'
      ? html`<textarea
          id=${id}
          rows=${options.rows ?? 6}
          spellcheck="false"
          data-testid=${ifDefined(options.testId)}
          aria-invalid=${ifDefined(common.invalid)}
          aria-describedby=${ifDefined(common.described)}
          .value=${live(options.value)}
          @input=${onInput}
        ></textarea>`
      : html`<input
          id=${id}
          type=${options.kind === 'password' ? 'password' : 'text'}
          inputmode=${ifDefined(options.kind === 'url' ? 'url' : undefined)}
          autocomplete="off"
          autocapitalize="off"
          spellcheck="false"
          placeholder=${ifDefined(options.placeholder)}
          ?required=${options.required ?? false}
          data-testid=${ifDefined(options.testId)}
          aria-invalid=${ifDefined(common.invalid)}
          aria-describedby=${ifDefined(common.described)}
          .value=${live(options.value)}
          @input=${onInput}
        />`;
  return html`<div class="field ${options.className ?? ''}">
    <label for=${id}>${options.label}</label>
    ${control}
    ${hint ? html`<p class="hint" id="${id}-hint">${hint}</p>` : nothing}
    ${
      problem
        ? html`<p class="problem" id="${id}-problem">${problem}</p>`
        : nothing
    }
  </div>`;
}

/**
 * The problem to show for one field of a form: an empty field is pointed out only once the form was
 * submitted (not while the person is still on the way to it); anything else as soon as it is typed.
 */
export function visibleProblem<F>(
  form: FormState<F>,
  key: keyof F,
  check: (value: string) => InputProblem,
): InputProblem {
  const value = String(form.values[key]);
  if (value.trim() === '' && !form.submitted) return null;
  return check(value);
}

/** Tags as chips, in a list. */
export function tagChips(
  tags: readonly string[] | undefined,
): TemplateResult | typeof nothing {
  if (!tags || tags.length === 0) return nothing;
  return html`<ul class="chips">
    ${tags.map((tag) => html`<li class="chip">${tag}</li>`)}
  </ul>`;
}

/**
 * A link that opens `url` in a new tab, or the text marked as blocked when the URL could run code
 * (the sanitizer turns it into `about:blank`).
 */
export function safeLink(url: string, text: string): TemplateResult {
  const safe = sanitizeUrl(url);
  if (url.trim() === '') return html`<span>${text}</span>`;
  if (safe !== url || safe === 'about:blank')
    return html`<span class="blocked-link"
      >${text} <span class="chip chip-bad">blocked link</span></span
    >`;
  return html`<a href=${safe} target="_blank" rel="noopener noreferrer"
    >${text}</a
  >`;
}

/** Text only screen readers read (completes a short visible button label). */
export function srOnly(text: string): TemplateResult {
  return html`<span class="visually-hidden">${text}</span>`;
}

/** The button that opens the sign-in dialog, shown wherever the server asked for a key. */
export function tokenButton(openSettings: () => void): TemplateResult {
  return html`<button type="button" class="button small" @click=${openSettings}>
    Sign in with a key
  </button>`;
}

/** What {@link formButtons} renders. */
export interface FormButtonsOptions {
  /** What the form adds or updates: `link`, `macro`, `pattern`. */
  noun: string;
  /** The id being edited, `null` when adding. */
  editing: string | null;
  onCancel(): void;
  /** The main form of its section: a primary button in a bar, and test ids `<noun>-submit`/`-cancel`. */
  primary?: boolean;
}

/** A form's submit button ("Add …" or "Update …") and, while editing, "Cancel edit". */
export function formButtons(options: FormButtonsOptions): TemplateResult {
  const { noun, editing, onCancel, primary = false } = options;
  const testId = (what: string): string | undefined =>
    primary ? `${noun}-${what}` : undefined;
  return html`<div class=${primary ? 'actions form-actions-bar' : 'actions'}>
    <button
      type="submit"
      class=${primary ? 'button primary' : 'button'}
      data-testid=${ifDefined(testId('submit'))}
    >
      ${editing === null ? `Add ${noun}` : `Update ${noun}`}
    </button>
    ${
      editing === null
        ? nothing
        : html`<button
            type="button"
            class="button ghost"
            data-testid=${ifDefined(testId('cancel'))}
            @click=${onCancel}
          >
            Cancel edit
          </button>`
    }
  </div>`;
}

/** What {@link foldedSection} renders. */
export interface FoldedSectionOptions {
  /** Classes besides `section fold`. */
  readonly className?: string;
  readonly testId: string;
  readonly title: string;
  /** Whether it is open (the state's `shown`). */
  readonly shown: boolean;
  /** Told when the person opens or folds it. */
  readonly onShow: (shown: boolean) => void;
  /** What it holds, rendered only while open. */
  readonly body: () => TemplateResult;
  /** What shows even while folded (a notice after an action). */
  readonly after?: TemplateResult | typeof nothing;
}

/** A section of the editor folded until asked for, its body rendered only while open. */
export function foldedSection(options: FoldedSectionOptions): TemplateResult {
  return html`<details
    class=${`section fold${options.className === undefined ? '' : ` ${options.className}`}`}
    data-testid=${options.testId}
    ?open=${options.shown}
    @toggle=${(event: Event) => {
      const shown = (event.currentTarget as HTMLDetailsElement).open;
      if (shown !== options.shown) options.onShow(shown);
    }}
  >
    <summary><h3 class="section-title">${options.title}</h3></summary>
    ${options.shown ? options.body() : nothing} ${options.after ?? nothing}
  </details>`;
}
