/**
 * One revision of a config shown read-only: who made it and when, what it changed against the revision
 * before it, "Restore this version", what differs from the current version (links added, removed,
 * changed field by field, each with "Restore this link"; macros, search patterns and settings), and
 * its links.
 */
import { html, nothing } from 'lit-html';
import type { TemplateResult } from 'lit-html';
import type { Author, ConfigComparison, Link } from '@linkconfig/shared';
import type { Actions } from './actions.js';
import type { ShownRevision } from '../state/history-state.js';
import { srOnly, tagChips } from './view-parts.js';

/**
 * Who made a revision, after "by": the key's label in quotes, a key without a label by its id, or
 * "an unknown author" where the server records nobody (it runs without keys or tokens).
 */
export function whoText(by: Author | null): string {
  if (by === null) return 'an unknown author';
  const label = by.label.trim();
  return label === '' ? `the key ${by.id} (no label)` : `“${label}”`;
}

const WHEN = new Intl.DateTimeFormat(undefined, {
  dateStyle: 'medium',
  timeStyle: 'medium',
});

/** When a revision was made, in this browser's words. */
export function whenText(at: string): string {
  const date = new Date(at);
  return Number.isNaN(date.getTime()) ? at : WHEN.format(date);
}

/** A field's value in a few words (text as it is, other values as JSON; absent: a dash). */
function valueText(value: unknown): string {
  if (value === undefined) return '—';
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return text.length > 200 ? `${text.slice(0, 199)}…` : text;
}

/**
 * A revision's whole list of links is open up to this many; a longer one (a 500-link config) starts
 * closed, so the view shows what differs first and stays short.
 */
const OPEN_LINKS = 20;

/** How many entries of one kind of change are listed before the rest fold under "N more". */
const SHOWN_CHANGES = 20;

/** The first {@link SHOWN_CHANGES} items as list entries, the rest folded in one entry. */
function capped<T>(
  items: readonly T[],
  render: (item: T) => TemplateResult,
): TemplateResult {
  const rest = items.slice(SHOWN_CHANGES);
  return html`${items.slice(0, SHOWN_CHANGES).map(render)}${
    rest.length === 0
      ? nothing
      : html`<li class="more-changes">
          <details>
            <summary>${rest.length} more</summary>
            <ul>
              ${rest.map(render)}
            </ul>
          </details>
        </li>`
  }`;
}

interface RevisionContext {
  name: string;
  /** A restore runs, or writes are not allowed. */
  busy: boolean;
  actions: Actions;
}

export function revisionView(
  shown: ShownRevision,
  context: RevisionContext,
): TemplateResult {
  const { rev, revision } = shown;
  const { meta, config } = revision;
  const links = Object.entries(config.allLinks);
  return html`<section
    class="revision-view"
    aria-labelledby="revision-heading"
    data-testid="revision-view"
    data-rev=${rev}
  >
    <h4 id="revision-heading" tabindex="-1">Revision ${rev} (read-only)</h4>
    <p class="hint">
      Made by ${whoText(meta.by)},
      <time datetime=${meta.at}>${whenText(meta.at)}</time>; ${links.length}
      ${links.length === 1 ? 'link' : 'links'}.
    </p>
    ${changesView(shown)}
    ${
      shown.diff === null
        ? html`<p data-testid="revision-is-current">
            This is the current version.
          </p>`
        : html`<div class="actions">
              <button
                type="button"
                class="button primary small"
                data-testid="restore-version"
                ?disabled=${context.busy}
                @click=${() => context.actions.history.restore(rev)}
              >
                Restore this version
              </button>
            </div>
            ${diffView(shown, context)}`
    }
    ${
      links.length === 0
        ? html`<h5>Links in revision ${rev}</h5>
            <p class="hint">No links.</p>`
        : html`<details
            class="revision-links-all"
            data-testid="revision-links-details"
            ?open=${links.length <= OPEN_LINKS}
          >
            <summary>
              <h5>Links in revision ${rev} (${links.length})</h5>
            </summary>
            <ul class="revision-links" data-testid="revision-links">
              ${links.map(([id, link]) => linkItem(id, link))}
            </ul>
          </details>`
    }
  </section>`;
}

function linkItem(id: string, link: Link): TemplateResult {
  return html`<li data-testid="revision-link" data-link-id=${id}>
    <strong>${link.label}</strong> <code>${id}</code>
    <span class="revision-url">${link.url}</span>
    ${tagChips(link.tags)}
  </li>`;
}

/** The parts besides links that a comparison found different, in words. */
function partWords(comparison: ConfigComparison): string[] {
  return comparison.parts.map((part) => PART_WORDS[part]);
}

const PART_WORDS = {
  macros: 'macros',
  searchPatterns: 'search patterns',
  settings: 'settings',
  other: 'other fields',
} as const;

/** What revision `rev` changed against the revision before it (said so), without restore buttons. */
function changesView(shown: ShownRevision): TemplateResult {
  const { previous, rev } = shown;
  if (previous === null)
    return html`<div class="revision-changes" data-testid="revision-changes">
      <h5>Compared with the revision before</h5>
      <p>
        ${
          rev === 1
            ? 'This is the first revision: everything in it was new.'
            : 'The revision before it is not kept (deleted or pruned), so there is nothing to compare with.'
        }
      </p>
    </div>`;
  const { changes } = previous;
  const parts = partWords(changes);
  const line = (what: string, ids: readonly string[], testId: string) =>
    ids.length === 0
      ? nothing
      : html`<p data-testid=${testId}>
          ${what}:
          ${ids
            .slice(0, SHOWN_CHANGES)
            .map((id, i) => html`${i > 0 ? ', ' : ''}<code>${id}</code>`)}${
            ids.length > SHOWN_CHANGES
              ? ` and ${ids.length - SHOWN_CHANGES} more`
              : ''
          }.
        </p>`;
  return html`<div class="revision-changes" data-testid="revision-changes">
    <h5>Compared with revision ${previous.rev} (the one before)</h5>
    ${
      changes.added.length +
        changes.removed.length +
        changes.changed.length +
        parts.length ===
      0
        ? html`<p>Nothing changed against revision ${previous.rev}.</p>`
        : nothing
    }
    ${line('Links added', changes.added, 'changes-added')}
    ${line('Links deleted', changes.removed, 'changes-removed')}
    ${
      changes.changed.length === 0
        ? nothing
        : html`<ul data-testid="changes-changed">
            ${capped(
              changes.changed,
              ({ id, fields, before, after }) =>
                html`<li data-link-id=${id}>
                  <code>${id}</code>
                  ${fieldChanges(fields, [before as Link, after as Link], 'before')}
                </li>`,
            )}
          </ul>`
    }
    ${
      parts.length === 0
        ? nothing
        : html`<p>Also changed: ${parts.join(', ')}.</p>`
    }
  </div>`;
}

/** What differs from revision `rev` to the current version. */
function diffView(
  shown: ShownRevision,
  context: RevisionContext,
): TemplateResult {
  const diff = shown.diff!;
  const then = shown.revision.config;
  const now = shown.current;
  const parts = partWords(diff);
  const nothingDiffers =
    diff.added.length + diff.removed.length + diff.changed.length === 0 &&
    parts.length === 0;
  const restoreLink = (id: string) =>
    html`<button
      type="button"
      class="button small"
      data-testid="restore-link"
      ?disabled=${context.busy}
      @click=${() => context.actions.history.restore(shown.rev, [id])}
    >
      Restore this link${srOnly(` “${id}”`)}
    </button>`;
  return html`<div class="revision-diff" data-testid="revision-diff">
    <h5>Compared with the current version</h5>
    ${nothingDiffers ? html`<p>The same as the current version.</p>` : nothing}
    ${
      diff.removed.length === 0
        ? nothing
        : html`<p>Links deleted since (only in revision ${shown.rev}):</p>
            <ul data-testid="diff-removed">
              ${capped(
                diff.removed,
                (id) =>
                  html`<li data-link-id=${id}>
                    <code>${id}</code> ${then.allLinks[id]?.label ?? ''}
                    ${restoreLink(id)}
                  </li>`,
              )}
            </ul>`
    }
    ${
      diff.added.length === 0
        ? nothing
        : html`<p>Links added since (restoring one removes it):</p>
            <ul data-testid="diff-added">
              ${capped(
                diff.added,
                (id) =>
                  html`<li data-link-id=${id}>
                    <code>${id}</code> ${now?.allLinks[id]?.label ?? ''}
                    ${restoreLink(id)}
                  </li>`,
              )}
            </ul>`
    }
    ${
      diff.changed.length === 0
        ? nothing
        : html`<p>Links changed since:</p>
            <ul data-testid="diff-changed">
              ${capped(
                diff.changed,
                ({ id, fields }) =>
                  html`<li data-link-id=${id}>
                    <code>${id}</code> ${restoreLink(id)}
                    ${fieldChanges(fields, [then.allLinks[id], now?.allLinks[id]])}
                  </li>`,
              )}
            </ul>`
    }
    ${
      parts.length === 0
        ? nothing
        : html`<p data-testid="diff-parts">
            Also changed since: ${parts.join(', ')}.
          </p>`
    }
  </div>`;
}

/**
 * Each changed field's value on both sides: the revision against now, or (`before`) the revision
 * before against this one.
 */
function fieldChanges(
  fields: readonly string[],
  [thenLink, nowLink]: readonly [Link | undefined, Link | undefined],
  against: 'now' | 'before' = 'now',
): TemplateResult {
  const [was, is] =
    against === 'now'
      ? ['in revision: ', 'now: ']
      : ['in the revision before: ', 'in this revision: '];
  const before = thenLink as Record<string, unknown> | undefined;
  const after = nowLink as Record<string, unknown> | undefined;
  return html`<dl class="field-changes" data-testid="field-changes">
    ${fields.map(
      (field) =>
        html`<div data-field=${field}>
          <dt>${field}</dt>
          <dd>
            <span class="visually-hidden">${was}</span
            ><del>${valueText(before?.[field])}</del>
            <span aria-hidden="true">→</span>
            <span class="visually-hidden">${is}</span
            ><ins>${valueText(after?.[field])}</ins>
          </dd>
        </div>`,
    )}
  </dl>`;
}
