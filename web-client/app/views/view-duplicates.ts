/**
 * The Duplicates section of the open config: links whose URLs are one after the shared normalization
 * (scheme, `www.`, trailing slash, default port, tracking parameters, fragment), grouped; a merge of two
 * of them with the side of each differing field picked and the tags united; the expressions that named
 * the removed id, rewritten; Undo in one step; and, on request, the URLs links of other configs share.
 */
import { html, nothing } from 'lit-html';
import type { TemplateResult } from 'lit-html';
import { foldedSection } from './view-parts.js';
import { differingFields, findDuplicates } from '@linkconfig/shared';
import type { DuplicateGroup, Link } from '@linkconfig/shared';
import type { Actions } from './actions.js';
import type { AppState, OpenConfig } from '../state/state.js';
import type { MergeDraft } from '../state/duplicates-state.js';
import { writeRefusal } from '../state/status-model.js';
import { acrossView } from './view-duplicates-across.js';

/**
 * The groups of the last draft shown, by what they depend on (ids and URLs): the view renders on every
 * change of the page, and normalizing every URL again each time would cost a large config a few
 * milliseconds per keystroke.
 */
let lastGroups: { key: string; groups: DuplicateGroup[] } | null = null;

function groupsOf(open: OpenConfig): DuplicateGroup[] {
  const links = open.draft.allLinks;
  const key = `${open.name}\n${Object.entries(links)
    .map(([id, link]) => `${id} ${String(link.url)}`)
    .join('\n')}`;
  if (lastGroups?.key !== key)
    lastGroups = {
      key,
      groups: findDuplicates([{ name: open.name, config: open.draft }]),
    };
  return lastGroups.groups;
}

/** The section, folded until asked for. */
export function duplicatesView(
  open: OpenConfig,
  state: AppState,
  actions: Actions,
): TemplateResult {
  const duplicates = state.duplicates;
  return foldedSection({
    className: 'dup-section',
    testId: 'duplicates',
    title: 'Duplicates',
    shown: duplicates.shown,
    onShow: (shown) => actions.duplicates.show(shown),
    body: () => body(open, state, actions),
    after: appliedNotice(open, state, actions),
  });
}

function body(
  open: OpenConfig,
  state: AppState,
  actions: Actions,
): TemplateResult {
  const readOnly = writeRefusal(state, open.name) !== null;
  const groups = groupsOf(open);
  const merge = state.duplicates.merge;
  return html`<p class="hint">
      Links whose URLs are the same page once the scheme, <code>www.</code>, a
      trailing slash, a default port, tracking parameters (<code>utm_*</code>,
      <code>fbclid</code>, <code>gclid</code>…) and the fragment are set aside.
    </p>
    <p data-testid="duplicates-count">
      ${
        groups.length === 0
          ? 'No duplicates in this config.'
          : `${groups.length} ${groups.length === 1 ? 'URL is' : 'URLs are'} in more than one link.`
      }
    </p>
    <ul class="dup-groups" data-testid="duplicate-groups">
      ${groups.map((group) => groupView(group, { readOnly, actions }))}
    </ul>
    ${
      merge !== null && merge.name === open.name
        ? mergeView(open, merge, { state, actions, readOnly })
        : nothing
    }
    ${acrossView(open, state, actions)}`;
}

function groupView(
  group: DuplicateGroup,
  {
    readOnly,
    actions,
  }: { readonly readOnly: boolean; readonly actions: Actions },
): TemplateResult {
  const [first] = group.members;
  return html`<li class="dup-group" data-testid="duplicate-group">
    <p class="dup-key"><code>${group.key}</code></p>
    <ul>
      ${group.members.map(
        (member) =>
          html`<li data-link-id=${member.id}>
            <strong>${member.id}</strong> <code>${member.url}</code>
            ${
              first === undefined || member.id === first.id
                ? nothing
                : html`<button
                    type="button"
                    class="button small"
                    data-testid="merge-start"
                    ?disabled=${readOnly}
                    @click=${() => actions.duplicates.startMerge(first.id, member.id)}
                  >
                    Merge into ${first.id}…
                  </button>`
            }
          </li>`,
      )}
    </ul>
  </li>`;
}

/** A field's value in words. */
function shown(value: unknown): string {
  if (value === undefined) return '(none)';
  return typeof value === 'string' ? value : JSON.stringify(value);
}

function mergeView(
  open: OpenConfig,
  merge: MergeDraft,
  {
    state,
    actions,
    readOnly,
  }: {
    readonly state: AppState;
    readonly actions: Actions;
    readonly readOnly: boolean;
  },
): TemplateResult {
  const links = open.draft.allLinks;
  const keep: Link | undefined = Object.hasOwn(links, merge.keep)
    ? links[merge.keep]
    : undefined;
  const remove: Link | undefined = Object.hasOwn(links, merge.remove)
    ? links[merge.remove]
    : undefined;
  const problem = state.duplicates.problem;
  return html`<section
    class="dup-merge"
    data-testid="merge-panel"
    aria-labelledby="merge-heading"
  >
    <h4 id="merge-heading" tabindex="-1">
      Merge “${merge.remove}” into “${merge.keep}”
    </h4>
    ${
      keep === undefined || remove === undefined
        ? html`<p class="problem">One of these links is no longer here.</p>`
        : html`<p class="hint">
              “${merge.keep}” stays where it is in the menu and gets the tags of
              both; “${merge.remove}” goes, and every macro or setting that
              names it will name “${merge.keep}”. Pick the value to keep where
              they differ.
            </p>
            <fieldset class="dup-picks" data-testid="merge-picks">
              <legend>Fields that differ</legend>
              ${differingFields(keep, remove).map((fieldName) =>
                pickRow(fieldName, { keep, remove, merge, actions }),
              )}
              <p data-testid="merge-tags">
                Tags:
                ${[...new Set([...(keep.tags ?? []), ...(remove.tags ?? [])])].join(', ') || '(none)'}
              </p>
            </fieldset>`
    }
    ${
      problem === null
        ? nothing
        : html`<p class="problem" data-testid="merge-problem">${problem}</p>`
    }
    <div class="actions">
      <button
        type="button"
        class="button primary"
        data-testid="merge-apply"
        ?disabled=${readOnly || keep === undefined || remove === undefined}
        @click=${() => actions.duplicates.applyMerge()}
      >
        Merge
      </button>
      <button
        type="button"
        class="button"
        data-testid="merge-swap"
        @click=${() => actions.duplicates.swap()}
      >
        Keep “${merge.remove}” instead
      </button>
      <button
        type="button"
        class="button"
        data-testid="merge-cancel"
        @click=${() => actions.duplicates.cancelMerge()}
      >
        Cancel
      </button>
    </div>
  </section>`;
}

function pickRow(
  fieldName: string,
  {
    keep,
    remove,
    merge,
    actions,
  }: {
    readonly keep: Link;
    readonly remove: Link;
    readonly merge: MergeDraft;
    readonly actions: Actions;
  },
): TemplateResult {
  const side =
    merge.picks[fieldName] ??
    (Object.hasOwn(keep, fieldName) ? 'keep' : 'remove');
  const name = `merge-pick-${fieldName}`;
  const option = (which: 'keep' | 'remove', value: unknown, id: string) =>
    html`<label class="dup-pick">
      <input
        type="radio"
        name=${name}
        data-testid="merge-pick"
        data-field=${fieldName}
        data-side=${which}
        .checked=${side === which}
        @change=${() => actions.duplicates.pick(fieldName, which)}
      />
      <span>${id}: <code>${shown(value)}</code></span>
    </label>`;
  return html`<div
    class="dup-pick-row"
    role="radiogroup"
    aria-label=${fieldName}
    data-field=${fieldName}
  >
    <span class="dup-field">${fieldName}</span>
    ${option('keep', (keep as Record<string, unknown>)[fieldName], merge.keep)}
    ${option('remove', (remove as Record<string, unknown>)[fieldName], merge.remove)}
  </div>`;
}

function appliedNotice(
  open: OpenConfig,
  state: AppState,
  actions: Actions,
): TemplateResult | typeof nothing {
  const applied = state.duplicates.applied;
  if (applied === null || applied.name !== open.name) return nothing;
  return html`<div class="notice" data-testid="merge-applied" tabindex="-1">
    <p>Merged ${applied.summary}.</p>
    ${
      applied.references.length === 0
        ? html`<p>No macro or setting named the removed link.</p>`
        : html`<p>These expressions now name the kept link:</p>
            <ul data-testid="merge-references">
              ${applied.references.map((line) => html`<li><code>${line}</code></li>`)}
            </ul>`
    }
    <button
      type="button"
      class="button small"
      data-testid="merge-undo"
      @click=${() => actions.duplicates.undo()}
    >
      Undo merge
    </button>
  </div>`;
}
