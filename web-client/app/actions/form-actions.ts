/**
 * The editing of a config's draft through the page's forms: links, macros, search patterns and the
 * settings JSON. Every entry form checks its fields first (problems are shown beside them and focus
 * goes to the first one) and asks before it replaces an entry under the same key.
 */
import type { LinkConfig } from '@linkconfig/shared';
import type { FieldOf, FormName, SectionForm } from '../views/actions.js';
import {
  linkFields,
  patternFields,
  putLink,
  putMacro,
  putPattern,
  putSettings,
  removeLink,
  removeMacro,
  removePattern,
  withLinkField,
} from '../model/config-draft.js';
import {
  checkLinkId,
  checkMacroExpression,
  checkMacroName,
  checkPattern,
  checkPatternFields,
  checkPatternKey,
  checkPatternLimit,
  checkTags,
  checkUrl,
  parseSettings,
} from '../model/input-checks.js';
import type { InputProblem } from '../model/input-checks.js';
import { parseExtras } from '../model/link-extras.js';
import type { PageContext } from './page-context.js';
import { emptyForm, NO_LINK, NO_MACRO, NO_PATTERN } from '../state/state.js';
import type { OpenConfig } from '../state/state.js';

/** How each section form is named in words and in element ids. */
const SECTIONS = {
  link: {
    noun: 'link',
    first: '#link-id',
    edit: '#link-label',
    list: '[data-testid="links-body"]',
  },
  macro: {
    noun: 'macro',
    first: '#macro-name',
    edit: '#macro-expression',
    list: '[data-testid="macros"]',
  },
  pattern: {
    noun: 'search pattern',
    first: '#pattern-key',
    edit: '#pattern-regex',
    list: '[data-testid="search-patterns"]',
  },
} as const;

/** Form input and the draft edits they lead to. */
export class FormActions {
  constructor(private readonly page: PageContext) {}

  /** Keeps a typed value in the form's state. */
  input<K extends FormName>(form: K, field: FieldOf<K>, value: string): void {
    const draft = this.page.state.open?.draft;
    if (form === 'link' && draft !== undefined) {
      // A new link's id follows its label until the person types one.
      const link = this.page.state.link;
      link.values = withLinkField(
        link.values,
        {
          field: field as FieldOf<'link'>,
          value,
          adding: link.editing === null,
        },
        draft,
      );
      return;
    }
    const state = this.page.state[form];
    state.values = { ...state.values, [field]: value };
  }

  /** Checks and applies a section form. */
  async submit(form: SectionForm): Promise<void> {
    switch (form) {
      case 'link':
        return this.submitLink();
      case 'macro':
        return this.submitMacro();
      case 'pattern':
        return this.submitPattern();
    }
  }

  /** Fills the form with entry `key` to edit it. */
  edit(form: SectionForm, key: string): void {
    const { state } = this.page;
    const draft = state.open?.draft;
    if (!draft) return;
    switch (form) {
      case 'link':
        state.link = {
          ...emptyForm(linkFields(key, draft.allLinks[key])),
          editing: key,
        };
        break;
      case 'macro':
        state.macro = {
          ...emptyForm({
            name: key,
            expression: draft.macros?.[key]?.linkItems ?? '',
          }),
          editing: key,
        };
        break;
      case 'pattern':
        state.pattern = {
          ...emptyForm(patternFields(key, draft.searchPatterns?.[key])),
          editing: key,
        };
        break;
    }
    this.page.focus(SECTIONS[form].edit);
  }

  /** Empties the form; a link's form gives focus back to its row's Edit button. */
  cancelEdit(form: SectionForm): void {
    const editing = this.page.state[form].editing;
    this.reset(form);
    this.page.focus(
      form === 'link' && editing !== null
        ? editButton(editing)
        : SECTIONS[form].first,
    );
  }

  /** Removes entry `key` from the draft; focus goes to the neighbouring entry. */
  removeEntry(form: SectionForm, key: string): void {
    const open = this.page.state.open;
    if (!open) return;
    const draft = open.draft;
    const keys = Object.keys(
      form === 'link'
        ? draft.allLinks
        : form === 'macro'
          ? (draft.macros ?? {})
          : (draft.searchPatterns ?? {}),
    );
    const index = keys.indexOf(key);
    const neighbour = keys[index + 1] ?? keys[index - 1];
    this.change(
      open,
      form === 'link'
        ? removeLink(draft, key)
        : form === 'macro'
          ? removeMacro(draft, key)
          : removePattern(draft, key),
    );
    if (this.page.state[form].editing === key) this.reset(form);
    this.page.focus(
      neighbour === undefined
        ? SECTIONS[form].first
        : `${SECTIONS[form].list} [${form === 'link' ? 'data-link-id' : 'data-key'}="${CSS.escape(neighbour)}"] .danger`,
    );
    this.page.announce(
      `Removed ${SECTIONS[form].noun} “${key}” from the draft. Save the config to keep this change.`,
    );
  }

  /** The settings text changed: applied to the draft when it is a JSON object. */
  settingsInput(text: string): void {
    const open = this.page.state.open;
    if (!open) return;
    open.settingsText = text;
    const parsed = parseSettings(text);
    if (parsed.ok) {
      open.settingsProblem = null;
      this.change(open, putSettings(open.draft, parsed.settings));
    } else {
      open.settingsProblem = parsed.problem;
      open.dirty = true;
    }
  }

  private async submitLink(): Promise<void> {
    const { state } = this.page;
    const form = state.link;
    const values = form.values;
    const extras = parseExtras(values.extras ?? []);
    if (
      !this.valid('link', [
        ['#link-id', checkLinkId(values.id)],
        ['#link-url', checkUrl(values.url)],
        ['#link-tags', checkTags(values.tags)],
        extras.ok
          ? ['#link-extras', null]
          : [`#extra-${extras.part}-${extras.index}`, extras.problem],
      ])
    )
      return;
    const id = values.id.trim();
    const open = state.open;
    if (!open) return;
    const existing = open.draft.allLinks[id];
    if (id !== form.editing && Object.hasOwn(open.draft.allLinks, id)) {
      const replace = await this.page.ask({
        title: `Replace the link “${id}”?`,
        body: `This config already has a link “${id}”${existing?.label ? ` (${existing.label})` : ''} to ${existing?.url ?? 'somewhere'}. Replacing it keeps only the new one.`,
        confirm: 'Replace link',
        cancel: 'Keep the existing link',
        danger: true,
      });
      if (!replace || state.open !== open) {
        this.page.focus('#link-id');
        return;
      }
    }
    this.change(open, putLink(open.draft, values, form.editing));
    state.links.touched = { ...state.links.touched, [id]: Date.now() };
    this.finish('link', id, form.editing !== null);
    if (form.editing !== null) this.page.focus(editButton(id));
  }

  private async submitMacro(): Promise<void> {
    const { state } = this.page;
    const form = state.macro;
    const values = form.values;
    if (
      !this.valid('macro', [
        ['#macro-name', checkMacroName(values.name)],
        ['#macro-expression', checkMacroExpression(values.expression)],
      ])
    )
      return;
    const name = values.name.trim();
    const open = state.open;
    if (!open) return;
    if (
      name !== form.editing &&
      !(await this.confirmReplace({
        open,
        exists: Object.hasOwn(open.draft.macros ?? {}, name),
        what: `the macro “@${name}”`,
        confirm: 'Replace macro',
      }))
    )
      return;
    this.change(open, putMacro(open.draft, values, form.editing));
    this.finish('macro', name, form.editing !== null);
  }

  private async submitPattern(): Promise<void> {
    const { state } = this.page;
    const form = state.pattern;
    const values = form.values;
    if (
      !this.valid('pattern', [
        ['#pattern-key', checkPatternKey(values.key)],
        ['#pattern-regex', checkPattern(values.pattern)],
        ['#pattern-fields', checkPatternFields(values.fields)],
        ['#pattern-limit', checkPatternLimit(values.limit)],
      ])
    )
      return;
    const key = values.key.trim();
    const open = state.open;
    if (!open) return;
    if (
      key !== form.editing &&
      !(await this.confirmReplace({
        open,
        exists: Object.hasOwn(open.draft.searchPatterns ?? {}, key),
        what: `the search pattern “/${key}/”`,
        confirm: 'Replace pattern',
      }))
    )
      return;
    this.change(open, putPattern(open.draft, values, form.editing));
    this.finish('pattern', key, form.editing !== null);
  }

  /** Marks the form submitted; when a field has a problem, focuses the first and answers false. */
  private valid(
    form: SectionForm,
    checks: [selector: string, problem: InputProblem][],
  ): boolean {
    this.page.state[form].submitted = true;
    const first = checks.find(([, problem]) => problem !== null);
    if (first) {
      this.page.focus(first[0]);
      return false;
    }
    return true;
  }

  /** Asks before an entry is replaced; answers whether to go on. */
  private async confirmReplace(options: {
    open: OpenConfig;
    exists: boolean;
    what: string;
    confirm: string;
  }): Promise<boolean> {
    if (!options.exists) return true;
    const replace = await this.page.ask({
      title: `Replace ${options.what}?`,
      body: `This config already has ${options.what}. Replacing it keeps only the new one.`,
      confirm: options.confirm,
      cancel: 'Keep the existing one',
      danger: true,
    });
    return replace && this.page.state.open === options.open;
  }

  private finish(form: SectionForm, key: string, updated: boolean): void {
    this.reset(form);
    this.page.announce(
      `${updated ? 'Updated' : 'Added'} ${SECTIONS[form].noun} “${key}”. Save the config to keep it.`,
    );
    this.page.focus(SECTIONS[form].first);
  }

  private reset(form: SectionForm): void {
    const { state } = this.page;
    if (form === 'link') state.link = emptyForm(NO_LINK);
    else if (form === 'macro') state.macro = emptyForm(NO_MACRO);
    else state.pattern = emptyForm(NO_PATTERN);
  }

  private change(open: OpenConfig, draft: LinkConfig): void {
    changeDraft(open, draft);
  }
}

/** Puts an edited draft in place: unsaved now, and the last save's problem no longer holds. */
export function changeDraft(open: OpenConfig, draft: LinkConfig): void {
  open.draft = draft;
  open.dirty = true;
  open.saveProblem = null;
}

/** The Edit button of link `id`'s row. */
function editButton(id: string): string {
  return `[data-testid="link-row"][data-link-id="${CSS.escape(id)}"] [data-testid="edit-link"]`;
}
