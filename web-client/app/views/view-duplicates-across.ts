/**
 * The Duplicates section's look across configs: on request, the URLs that links of the open config and of
 * the other configs this key may read share, with a button to open each link elsewhere.
 */
import { html, nothing } from 'lit-html';
import type { TemplateResult } from 'lit-html';
import type { Actions } from './actions.js';
import type { AppState, OpenConfig } from '../state/state.js';

export function acrossView(
  open: OpenConfig,
  state: AppState,
  actions: Actions,
): TemplateResult {
  const across = state.duplicates.across;
  const result =
    across !== null && across !== 'reading' && across.name === open.name
      ? across
      : null;
  return html`<div class="dup-across" data-testid="duplicates-across">
    <button
      type="button"
      class="button"
      data-testid="duplicates-look-across"
      ?disabled=${across === 'reading'}
      @click=${() => actions.duplicates.lookAcross()}
    >
      ${across === 'reading' ? 'Reading the other configs…' : 'Look in the other configs too'}
    </button>
    ${
      result === null
        ? nothing
        : html`<p data-testid="duplicates-across-count">
              ${
                result.groups.length === 0
                  ? `No URL of the ${result.read} configs read is in more than one of them.`
                  : `${result.groups.length} ${result.groups.length === 1 ? 'URL is' : 'URLs are'} in more than one of the ${result.read} configs read.`
              }
              ${
                result.skipped.length === 0
                  ? nothing
                  : ` Not read: ${result.skipped.join(', ')}.`
              }
            </p>
            <ul class="dup-groups">
              ${result.groups.map(
                (group) =>
                  html`<li
                    class="dup-group"
                    data-testid="duplicate-group-across"
                  >
                    <p class="dup-key"><code>${group.key}</code></p>
                    <ul>
                      ${group.members.map(
                        (member) =>
                          html`<li>
                            ${
                              member.config === open.name
                                ? html`<strong>${member.id}</strong> (this
                                    config)`
                                : html`<button
                                    type="button"
                                    class="button small"
                                    @click=${() => actions.openResult(member.config, member.id)}
                                  >
                                    Open ${member.id} in ${member.config}
                                  </button>`
                            }
                          </li>`,
                      )}
                    </ul>
                  </li>`,
              )}
            </ul>`
    }
  </div>`;
}
