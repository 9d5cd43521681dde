/**
 * What every publish of the Publish panel sends besides the revision (view-publish.ts): the site origins
 * allowed to read the config from a browser (any, or a list edited here) and whether links confirmed
 * broken are left out of what sites are served.
 */
import { html, nothing } from 'lit-html';
import type { TemplateResult } from 'lit-html';
import type { Actions } from './actions.js';
import type { PublishState } from '../state/publish-state.js';

/** The allowed origins (a list, or any) and the healthy-links option, sent with every publish. */
export function settingsView(
  publish: PublishState,
  actions: Actions,
  context: { off: boolean; refusal: string | null },
): TemplateResult {
  const { off } = context;
  const origins = publish.origins;
  return html`<fieldset class="publish-settings" ?disabled=${off}>
      <legend>Sites allowed to load it in a browser</legend>
      <label class="check">
        <input
          type="radio"
          name="origins-mode"
          data-testid="origins-any"
          .checked=${origins === null}
          @change=${() => actions.publish.setAnyOrigin(true)}
        />
        Any site
      </label>
      <label class="check">
        <input
          type="radio"
          name="origins-mode"
          data-testid="origins-listed"
          .checked=${origins !== null}
          @change=${() => actions.publish.setAnyOrigin(false)}
        />
        Only these sites
      </label>
      ${
        origins === null
          ? nothing
          : html`<ul class="origin-list" data-testid="origin-list">
                ${origins.map(
                  (origin) =>
                    html`<li data-testid="origin-item">
                      <code>${origin}</code>
                      <button
                        type="button"
                        class="button small ghost"
                        aria-label=${`Remove ${origin}`}
                        @click=${() => actions.publish.removeOrigin(origin)}
                      >
                        Remove
                      </button>
                    </li>`,
                )}
                ${
                  origins.length === 0
                    ? html`<li class="hint">
                        No site yet: browsers on any page are refused.
                      </li>`
                    : nothing
                }
              </ul>
              <form
                class="origin-add"
                @submit=${(event: Event) => {
                  event.preventDefault();
                  actions.publish.addOrigin();
                }}
              >
                <label for="origin-input">Site origin</label>
                <input
                  id="origin-input"
                  data-testid="origin-input"
                  placeholder="https://site.example"
                  autocomplete="off"
                  .value=${publish.newOrigin}
                  @input=${(event: Event) =>
                    actions.publish.inputOrigin(
                      (event.target as HTMLInputElement).value,
                    )}
                />
                <button
                  type="submit"
                  class="button small"
                  data-testid="origin-add"
                >
                  Add site
                </button>
              </form>`
      }
    </fieldset>
    <fieldset class="publish-settings" ?disabled=${off}>
      <legend>What sites are served</legend>
      <label class="check">
        <input
          type="checkbox"
          data-testid="hide-broken"
          .checked=${publish.hideBroken}
          @change=${(event: Event) =>
            actions.publish.setHideBroken(
              (event.target as HTMLInputElement).checked,
            )}
        />
        Leave out links confirmed broken or unreachable
      </label>
    </fieldset>`;
}
