/**
 * The Tags section of the open config: every tag with its link count, the expressions that use it and
 * its likely variants (case only, singular/plural, used once); choose tags, name the tag they become,
 * preview (links touched, each macro's result before and after, flags) and rename or merge as one save,
 * with Undo in one step.
 */
import { html, nothing } from 'lit-html';
import type { TemplateResult } from 'lit-html';
import { foldedSection } from './view-parts.js';
import { tagInventory } from '@linkconfig/shared';
import type { TagRenamePreview, TagUse } from '@linkconfig/shared';
import type { Actions } from './actions.js';
import type { AppState, OpenConfig } from '../state/state.js';
import { writeRefusal } from '../state/status-model.js';

const VARIANT_WORDS = {
  case: 'case of',
  plural: 'plural/singular of',
  once: 'used once',
} as const;

/** The section, folded until asked for. */
export function tagsView(
  open: OpenConfig,
  state: AppState,
  actions: Actions,
): TemplateResult {
  const tags = state.tags;
  const readOnly = writeRefusal(state, open.name) !== null;
  return foldedSection({
    testId: 'tags',
    title: 'Tags',
    shown: tags.shown,
    onShow: (shown) => actions.tags.show(shown),
    body: () => tagsBody(open, state, { actions, readOnly }),
    after: undoNotice(open, state, actions),
  });
}

function tagsBody(
  open: OpenConfig,
  state: AppState,
  {
    actions,
    readOnly,
  }: { readonly actions: Actions; readonly readOnly: boolean },
): TemplateResult {
  const tags = state.tags;
  const inventory = tagInventory(open.draft);
  return html`<p class="hint">
      Renaming or merging tags changes the links and every expression that names
      them (macros, settings) in one save. Choose the tags, name the tag they
      become, and look at the preview first.
    </p>
    <table class="tags-table" data-testid="tags-table">
      <caption class="visually-hidden">
        Tags of ${open.name}
      </caption>
      <thead>
        <tr>
          <th scope="col">Choose</th>
          <th scope="col">Tag</th>
          <th scope="col">Links</th>
          <th scope="col">Used by</th>
          <th scope="col">Likely variant</th>
        </tr>
      </thead>
      <tbody>
        ${inventory.map((use) => tagRow(use, tags.chosen.includes(use.tag), actions))}
      </tbody>
    </table>
    <form
      class="tags-rename"
      data-testid="tags-rename"
      @submit=${(event: Event) => {
        event.preventDefault();
        actions.tags.preview();
      }}
    >
      <p data-testid="tags-chosen">
        ${tags.chosen.length === 0 ? 'No tag chosen.' : `Chosen: ${tags.chosen.join(', ')}`}
      </p>
      <label for="tags-to">Rename to</label>
      <input
        id="tags-to"
        data-testid="tags-to"
        .value=${tags.to}
        autocomplete="off"
        spellcheck="false"
        @input=${(event: Event) => actions.tags.setTo((event.target as HTMLInputElement).value)}
      />
      <button type="submit" class="button" data-testid="tags-preview">
        Preview
      </button>
      <button
        type="button"
        class="button primary"
        data-testid="tags-apply"
        ?disabled=${readOnly || tags.preview === null}
        @click=${() => actions.tags.apply()}
      >
        ${tags.preview?.mergesIntoExisting === true ? 'Merge' : 'Rename'}
      </button>
    </form>
    ${tags.problem === null ? nothing : html`<p class="problem" data-testid="tags-problem">${tags.problem}</p>`}
    ${tags.preview === null ? nothing : previewView(tags.preview, tags.previewMs)}`;
}

function tagRow(
  use: TagUse,
  chosen: boolean,
  actions: Actions,
): TemplateResult {
  const id = `tag-choose-${use.tag}`;
  return html`<tr data-testid="tag-row" data-tag=${use.tag}>
    <td>
      <input
        type="checkbox"
        id=${id}
        data-testid="tag-choose"
        .checked=${chosen}
        @change=${() => actions.tags.choose(use.tag)}
      />
    </td>
    <td><label for=${id}>${use.tag}</label></td>
    <td data-testid="tag-count">${use.links.length}</td>
    <td data-testid="tag-users">
      ${use.usedBy.length === 0 ? '—' : use.usedBy.join(', ')}
    </td>
    <td data-testid="tag-variants">
      ${use.variants
        .map((v) =>
          v.of === undefined
            ? VARIANT_WORDS[v.kind]
            : `${VARIANT_WORDS[v.kind]} ${v.of}`,
        )
        .join('; ')}
    </td>
  </tr>`;
}

function previewView(
  preview: TagRenamePreview,
  ms: number | null,
): TemplateResult {
  return html`<section
    class="tags-preview"
    data-testid="tags-preview-panel"
    aria-labelledby="tags-preview-heading"
    data-preview-ms=${ms === null ? '' : String(ms)}
  >
    <h4 id="tags-preview-heading">
      ${preview.from.join(', ')} → ${preview.to}: ${preview.links.length} links
      change
    </h4>
    <ul data-testid="tags-notes">
      ${preview.notes.map((note) => html`<li>${note}</li>`)}
    </ul>
    <ul data-testid="tags-expressions">
      ${preview.expressions.map(
        (change) =>
          html`<li>
            <code>${change.where}</code>: <code>${change.before}</code> →
            <code>${change.after}</code>
          </li>`,
      )}
    </ul>
    <ul data-testid="tags-macros">
      ${preview.macros.map(
        (macro) =>
          html`<li
            data-macro=${macro.name}
            data-flagged=${String(macro.flagged)}
          >
            @${macro.name}: ${macro.before.length} → ${macro.after.length} links
            ${macro.flagged ? html`<strong>check: ${macro.reason}</strong>` : nothing}
          </li>`,
      )}
    </ul>
  </section>`;
}

function undoNotice(
  open: OpenConfig,
  state: AppState,
  actions: Actions,
): TemplateResult | typeof nothing {
  const applied = state.tags.applied;
  if (applied === null || applied.name !== open.name) return nothing;
  return html`<p class="notice" data-testid="tags-applied">
    Renamed ${applied.summary}.
    <button
      type="button"
      class="button small"
      data-testid="tags-undo"
      @click=${() => actions.tags.undo()}
    >
      Undo rename
    </button>
  </p>`;
}
