/**
 * One revision of a config shown read-only: who made it and when, "Restore this version", what differs
 * from the current version (links added, removed, changed field by field, each with "Restore this
 * link"; macros, search patterns and settings), and its links.
 */
import { html, nothing } from 'lit-html';
import type { TemplateResult } from 'lit-html';
import type { Author, Link } from '@linkconfig/shared';
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
    <h5>Links in revision ${rev}</h5>
    ${
      links.length === 0
        ? html`<p class="hint">No links.</p>`
        : html`<ul class="revision-links" data-testid="revision-links">
            ${links.map(([id, link]) => linkItem(id, link))}
          </ul>`
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

/** What differs from revision `rev` to the current version. */
function diffView(
  shown: ShownRevision,
  context: RevisionContext,
): TemplateResult {
  const diff = shown.diff!;
  const then = shown.revision.config;
  const now = shown.current;
  const parts = (
    [
      ['macros', 'macros'],
      ['searchPatterns', 'search patterns'],
      ['settings', 'settings'],
    ] as const
  )
    .filter(([key]) => diff[key])
    .map(([, words]) => words);
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
              ${diff.removed.map(
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
              ${diff.added.map(
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
              ${diff.changed.map(
                ({ id, fields }) =>
                  html`<li data-link-id=${id}>
                    <code>${id}</code> ${restoreLink(id)}
                    ${fieldChanges(fields, then.allLinks[id], now?.allLinks[id])}
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

function fieldChanges(
  fields: readonly string[],
  thenLink: Link | undefined,
  nowLink: Link | undefined,
): TemplateResult {
  const before = thenLink as Record<string, unknown> | undefined;
  const after = nowLink as Record<string, unknown> | undefined;
  return html`<dl class="field-changes" data-testid="field-changes">
    ${fields.map(
      (field) =>
        html`<div data-field=${field}>
          <dt>${field}</dt>
          <dd>
            <span class="visually-hidden">in revision: </span
            ><del>${valueText(before?.[field])}</del>
            <span aria-hidden="true">→</span>
            <span class="visually-hidden">now: </span
            ><ins>${valueText(after?.[field])}</ins>
          </dd>
        </div>`,
    )}
  </dl>`;
}
