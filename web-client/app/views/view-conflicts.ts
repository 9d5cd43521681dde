/**
 * The conflicts panel: configs changed in this browser and, meanwhile, on the server, in the same
 * places. Everything else both sides changed is merged already; the panel lists only the links and
 * fields that truly conflict, side by side with the version both started from, to pick per field or
 * per link (or keep mine / take the server's whole). When that version is unknown, it shows what
 * differs and offers a union merge instead. Nothing of such a config is sent until the person chooses.
 * Above it, a short note says when changes made elsewhere were merged without a question.
 */
import { compareConfigs } from '@linkconfig/shared';
import type { Link } from '@linkconfig/shared';
import type { Conflict } from '@linkconfig/web-client';
import { html, nothing } from 'lit-html';
import type { TemplateResult } from 'lit-html';
import { repeat } from 'lit-html/directives/repeat.js';
import type { Actions } from './actions.js';
import type { AppState } from '../state/state.js';
import { srOnly } from './view-parts.js';
import { PART_NAMES, describeLink, picksView } from './view-conflict-picks.js';

/** The id of the heading of conflict number `index`, for focus. */
export function conflictHeadingId(index: number): string {
  return `conflict-${index}-heading`;
}

/** The note of a merge made without asking, then the panel; nothing when neither applies. */
export function conflictsView(
  state: AppState,
  actions: Actions,
): TemplateResult | typeof nothing {
  const note =
    state.mergedNote === null
      ? nothing
      : html`<div class="panel notice" data-testid="merged-note" role="status">
          <p>${state.mergedNote}</p>
          <button
            type="button"
            class="button small"
            @click=${() => actions.dismissMergedNote()}
          >
            OK
          </button>
        </div>`;
  if (state.conflicts.length === 0) return note;
  return html`${note}${panelView(state, actions)}`;
}

function panelView(state: AppState, actions: Actions): TemplateResult {
  const openName = state.open?.name;
  // The open config's conflict first: it is the one the person is looking at.
  const ordered = [...state.conflicts].sort(
    (a, b) => Number(b.name === openName) - Number(a.name === openName),
  );
  return html`<section
    id="conflicts"
    class="panel conflicts"
    data-testid="conflicts"
    aria-labelledby="conflicts-heading"
    tabindex="-1"
  >
    <h2 id="conflicts-heading">Choose which version to keep</h2>
    <p class="hint">
      These configs were changed in this browser and, meanwhile, on the server.
      Nothing of them is sent until you choose.
    </p>
    ${repeat(
      ordered,
      (conflict) => conflict.name,
      (conflict, index) =>
        conflictView(
          conflict,
          { index, isOpen: conflict.name === openName },
          actions,
        ),
    )}
  </section>`;
}

function conflictView(
  conflict: Conflict,
  place: { index: number; isOpen: boolean },
  actions: Actions,
): TemplateResult {
  const { index, isOpen } = place;
  const { name, local, remote } = conflict;
  const headingId = conflictHeadingId(index);
  return html`<article
    class="conflict"
    data-testid="conflict"
    data-config-name=${name}
    aria-labelledby=${headingId}
  >
    <h3 id=${headingId} tabindex="-1">
      “${name}”${isOpen ? html` <span class="muted">(open)</span>` : nothing}
    </h3>
    <p>${summary(conflict)}</p>
    ${
      conflict.conflicts.length > 0
        ? picksView({
            name,
            key: String(index),
            conflicts: conflict.conflicts,
            submit: 'Save with these choices',
            settle: (resolutions) =>
              actions.resolveConflict(name, { resolutions }),
          })
        : diffView(conflict)
    }
    <div class="actions">
      <button
        type="button"
        class="button small"
        data-testid="keep-mine"
        @click=${() => actions.resolveConflict(name, 'keep-local')}
      >
        Keep mine${srOnly(` for “${name}”`)}
      </button>
      <button
        type="button"
        class="button small"
        data-testid="take-theirs"
        @click=${() => actions.resolveConflict(name, 'take-remote')}
      >
        Take the server’s${srOnly(` for “${name}”`)}
      </button>
      ${
        local !== null && remote !== null && conflict.conflicts.length === 0
          ? html`<button
              type="button"
              class="button small"
              data-testid="merge"
              @click=${() => actions.resolveConflict(name, 'merge')}
            >
              Merge${srOnly(` both versions of “${name}”`)}
            </button>`
          : nothing
      }
    </div>
    ${
      local !== null && remote !== null && conflict.conflicts.length === 0
        ? html`<p class="hint">
            Merge keeps every link of both versions; where both have the same
            id, yours is kept.
          </p>`
        : nothing
    }
  </article>`;
}

/** One sentence on what happened on each side. */
function summary(conflict: Conflict): string {
  const when = conflict.remoteUpdatedAt
    ? ` (changed ${new Date(conflict.remoteUpdatedAt).toLocaleString()})`
    : '';
  if (conflict.local === null)
    return `You deleted it here; the server holds a changed version${when}.`;
  if (conflict.remote === null)
    return 'You changed it here; it was deleted on the server.';
  return `Your version, saved in this browser, and the server’s version${when} differ.`;
}

function diffView(conflict: Conflict): TemplateResult {
  const mine = conflict.local;
  const theirs = conflict.remote;
  // The server's version before, this browser's after: added is only in yours, removed only in theirs.
  const comparison = compareConfigs(theirs, mine);
  const { changed } = comparison;
  const onlyMine = comparison.added;
  const onlyTheirs = comparison.removed;
  // Beside a deleted version only the links are compared.
  const otherParts = mine === null || theirs === null ? [] : comparison.parts;
  const nothingDiffers =
    onlyMine.length + onlyTheirs.length + changed.length === 0;
  return html`<div class="conflict-diff" data-testid="conflict-diff">
    ${
      onlyMine.length > 0
        ? html`<h4>Links only in yours</h4>
            <ul class="diff-list" data-testid="only-mine">
              ${onlyMine.map((id) => linkItem(id, mine?.allLinks[id]))}
            </ul>`
        : nothing
    }
    ${
      onlyTheirs.length > 0
        ? html`<h4>Links only in the server’s</h4>
            <ul class="diff-list" data-testid="only-theirs">
              ${onlyTheirs.map((id) => linkItem(id, theirs?.allLinks[id]))}
            </ul>`
        : nothing
    }
    ${
      changed.length > 0
        ? html`<h4>Links in both, changed</h4>
            <ul class="diff-list" data-testid="changed-links">
              ${changed.map(
                (change) =>
                  html`<li>
                    <code>${change.id}</code>
                    <dl class="diff-pair">
                      <dt>Yours</dt>
                      <dd>${describeLink(change.after as Link)}</dd>
                      <dt>Server’s</dt>
                      <dd>${describeLink(change.before as Link)}</dd>
                    </dl>
                    ${
                      describeLink(change.after as Link) ===
                      describeLink(change.before as Link)
                        ? html`<p class="hint">
                            They differ in fields not shown here.
                          </p>`
                        : nothing
                    }
                  </li>`,
              )}
            </ul>`
        : nothing
    }
    ${
      otherParts.length > 0
        ? html`<p>
            ${nothingDiffers ? 'The links are the same; ' : 'Also different: '}
            ${otherParts.map((part) => PART_NAMES[part] ?? part).join(', ')}${
              nothingDiffers ? ' differ.' : '.'
            }
          </p>`
        : nothingDiffers
          ? html`<p>The links are the same.</p>`
          : nothing
    }
  </div>`;
}

/** An id and its link, in a list of links only one version has. */
function linkItem(id: string, link: Link | undefined): TemplateResult {
  return html`<li><code>${id}</code> ${describeLink(link)}</li>`;
}
