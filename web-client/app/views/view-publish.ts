/**
 * The Publish panel of the open config (under its editor bar): which revision sites are served against
 * the draft, with what the draft changes; Publish, Roll back (a revision picked), Unpublish; the site
 * origins allowed to read it and the healthy-links option; the embed snippet. A key that may not
 * publish sees all of it with the actions off and the reason said once.
 */
import { html, nothing } from 'lit-html';
import type { TemplateResult } from 'lit-html';
import type { ConfigDiff } from '@linkconfig/shared';
import type { Actions } from './actions.js';
import type { AppState } from '../state/state.js';
import type { PublishState } from '../state/publish-state.js';
import { publishRefusalOf } from '../model/key-access.js';
import { embedSnippet } from '../model/embed-snippet.js';
import { whenText, whoText } from './view-revision.js';
import { settingsView } from './view-publish-settings.js';

/** Why this page may not publish `name`, or null (the server decides when the key is not known). */
function publishRefusal(state: AppState, name: string): string | null {
  return state.grant === null ? null : publishRefusalOf(state.grant, name);
}

/** The panel, when it is open for the open config. */
export function publishView(
  state: AppState,
  actions: Actions,
): TemplateResult | typeof nothing {
  const publish = state.publish;
  const name = publish.name;
  if (name === null || state.open?.name !== name) return nothing;
  const refusal = publishRefusal(state, name);
  const off = refusal !== null || publish.busy || publish.loading;
  const draft = publish.revisions[0];
  const record = publish.record;
  return html`<section
    class="history-panel publish-panel"
    aria-labelledby="publish-heading"
    data-testid="publish-panel"
    aria-busy=${publish.loading || publish.busy ? 'true' : 'false'}
  >
    <div class="history-head">
      <h3 id="publish-heading" tabindex="-1">Publishing “${name}”</h3>
      <button
        type="button"
        class="button small ghost"
        data-testid="close-publish"
        @click=${() => actions.publish.closePanel()}
      >
        Close publishing
      </button>
    </div>
    <p class="hint">
      Sites are served the published revision; saving edits the draft only.
    </p>
    ${
      refusal === null
        ? nothing
        : html`<p
            class="notice"
            id="publish-refusal"
            data-testid="publish-refusal"
          >
            ${refusal}
          </p>`
    }
    ${
      publish.problem === null
        ? nothing
        : html`<p class="notice" role="alert" data-testid="publish-problem">
            ${publish.problem}
          </p>`
    }
    ${
      publish.note === null
        ? nothing
        : html`<p class="hint" data-testid="publish-note">${publish.note}</p>`
    }
    <dl class="publish-facts">
      <div>
        <dt>Published</dt>
        <dd data-testid="published-rev" data-rev=${record?.rev ?? 0}>
          ${
            record === null
              ? 'Not published: sites get no menu.'
              : `Revision ${record.rev}, ${whenText(record.publishedAt)} by ${whoText(record.publishedBy)}`
          }
        </dd>
      </div>
      <div>
        <dt>Draft</dt>
        <dd data-testid="draft-rev" data-rev=${draft?.rev ?? 0}>
          ${
            draft === undefined
              ? publish.loading
                ? 'Loading…'
                : 'Not on the server yet.'
              : `Revision ${draft.rev}, ${whenText(draft.at)}`
          }
        </dd>
      </div>
    </dl>
    ${diffView(publish, draft?.rev ?? 0)}
    ${settingsView(publish, actions, { off, refusal })}
    <div class="actions">
      <button
        type="button"
        class="button primary"
        data-testid="publish-draft"
        ?disabled=${off || draft === undefined || record?.rev === draft.rev}
        aria-describedby=${refusal === null ? nothing : 'publish-refusal'}
        @click=${() => actions.publish.publish()}
      >
        ${draft === undefined ? 'Publish' : `Publish revision ${draft.rev}`}
      </button>
      ${
        record === null
          ? nothing
          : html`<button
                type="button"
                class="button"
                data-testid="apply-publish-settings"
                ?disabled=${off}
                @click=${() => actions.publish.applySettings()}
              >
                Save sites and option
              </button>
              <button
                type="button"
                class="button ghost danger"
                data-testid="unpublish"
                ?disabled=${off}
                @click=${() => actions.publish.unpublish()}
              >
                Unpublish
              </button>`
      }
    </div>
    ${rollbackView(publish, actions, off)} ${snippetView(name, actions)}
  </section>`;
}

/** What the draft changes against the published revision. */
function diffView(
  publish: PublishState,
  draftRev: number,
): TemplateResult | typeof nothing {
  const record = publish.record;
  if (record === null || draftRev === 0) return nothing;
  if (record.rev === draftRev)
    return html`<p class="hint" data-testid="publish-diff" data-same="true">
      The draft is the published revision.
    </p>`;
  const diff = publish.diff;
  if (diff === null) return nothing;
  return html`<div class="revision-diff" data-testid="publish-diff">
    <h4>The draft against the published revision</h4>
    <ul>
      ${idsLine('Added', diff.added, 'diff-added')}
      ${idsLine('Removed', diff.removed, 'diff-removed')}
      ${idsLine(
        'Changed',
        diff.changed.map((c) => `${c.id} (${c.fields.join(', ')})`),
        'diff-changed',
      )}
      ${otherParts(diff)}
    </ul>
  </div>`;
}

function idsLine(
  label: string,
  ids: readonly string[],
  testId: string,
): TemplateResult | typeof nothing {
  if (ids.length === 0) return nothing;
  return html`<li data-testid=${testId}>
    <strong>${label} (${ids.length}):</strong> ${ids.join(', ')}
  </li>`;
}

function otherParts(diff: ConfigDiff): TemplateResult | typeof nothing {
  const parts = [
    diff.macros ? 'macros' : null,
    diff.searchPatterns ? 'search patterns' : null,
    diff.settings ? 'settings' : null,
  ].filter((p) => p !== null);
  if (parts.length === 0) return nothing;
  return html`<li data-testid="diff-other">
    <strong>Also changed:</strong> ${parts.join(', ')}
  </li>`;
}

/** Roll back: a revision to publish instead, picked from the newest ones. */
function rollbackView(
  publish: PublishState,
  actions: Actions,
  off: boolean,
): TemplateResult | typeof nothing {
  const choices = publish.revisions.filter(
    (r) => r.rev !== publish.record?.rev,
  );
  if (choices.length === 0) return nothing;
  return html`<div class="publish-rollback">
    <label for="rollback-rev">Roll back to</label>
    <select
      id="rollback-rev"
      data-testid="rollback-rev"
      ?disabled=${off}
      @change=${(event: Event) =>
        actions.publish.pickRollback(
          Number((event.target as HTMLSelectElement).value),
        )}
    >
      ${publish.rollbackRev === 0 ? html`<option value="0" selected>Pick a revision</option>` : nothing}
      ${choices.map(
        (r) =>
          html`<option
            value=${r.rev}
            ?selected=${r.rev === publish.rollbackRev}
          >
            Revision ${r.rev} (${whenText(r.at)})
          </option>`,
      )}
    </select>
    <button
      type="button"
      class="button small"
      data-testid="rollback"
      ?disabled=${off || publish.rollbackRev === 0}
      @click=${() => actions.publish.rollback()}
    >
      Publish this revision
    </button>
  </div>`;
}

/** The snippet a site adds to show the published menu. */
function snippetView(name: string, actions: Actions): TemplateResult {
  return html`<div class="publish-snippet">
    <label for="embed-snippet">Embed on a site (after Alap’s script)</label>
    <textarea
      id="embed-snippet"
      data-testid="embed-snippet"
      readonly
      rows="3"
      .value=${embedSnippet(location.origin, name)}
    ></textarea>
    <button
      type="button"
      class="button small"
      data-testid="copy-snippet"
      @click=${() => void actions.publish.copySnippet()}
    >
      Copy snippet
    </button>
  </div>`;
}
