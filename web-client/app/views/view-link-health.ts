/**
 * The link health parts of the links list: the facets "Broken (n)" and "Moved (n)" of the filter,
 * "Check now", "Use the new URL" for all moved links, and what the last check or fix did. The badge of
 * each row is `link-health-badge.ts`.
 */
import type { Link } from '@linkconfig/shared';
import { html, nothing } from 'lit-html';
import type { TemplateResult } from 'lit-html';
import type { Actions } from './actions.js';
import {
  HEALTH_FACETS,
  healthOf,
  movedLinks,
  newUrlOf,
} from '../model/link-health.js';
import type { HealthById, HealthFacet } from '../model/link-health.js';
import { linkHealthBadge } from './link-health-badge.js';
import type { AppState, OpenConfig } from '../state/state.js';
import { srOnly } from './view-parts.js';

/** The health the page has of the open config (null: none read: offline, or not read yet). */
export function healthShown(
  state: AppState,
  open: OpenConfig,
): HealthById | null {
  const health = state.linkHealth;
  return health.name === open.name && health.problem === null
    ? health.byId
    : null;
}

/** The facets, "Check now", "Use the new URL" for all, and the last note. */
export function healthBar(
  state: AppState,
  actions: Actions,
  context: {
    open: OpenConfig;
    counts: Record<HealthFacet, number>;
    readOnly: boolean;
  },
): TemplateResult {
  const { open, counts, readOnly } = context;
  const health = state.linkHealth;
  const byId = healthShown(state, open);
  const moved =
    byId === null ? 0 : movedLinks(open.draft.allLinks, byId).length;
  const offline = !state.online || state.reachable === false;
  return html`<div class="health-bar" data-testid="health-bar">
    <div
      class="facets"
      role="group"
      aria-label="Narrow by link health"
      data-testid="health-facets"
    >
      ${(Object.keys(HEALTH_FACETS) as HealthFacet[]).map(
        (facet) =>
          html`<button
            type="button"
            class="facet"
            data-testid="health-facet"
            data-facet=${facet}
            aria-pressed=${state.links.health === facet ? 'true' : 'false'}
            ?disabled=${counts[facet] === 0 && state.links.health !== facet}
            @click=${() => actions.findLinks({ toggleHealth: facet })}
          >
            ${HEALTH_FACETS[facet].label}
            <span class="facet-count">(${counts[facet]})</span>
          </button>`,
      )}
    </div>
    <span class="actions">
      ${
        moved > 0
          ? html`<button
              type="button"
              class="button small"
              data-testid="use-new-urls"
              ?disabled=${readOnly || health.fixing}
              @click=${() => actions.linkHealth.useNewUrl()}
            >
              Use the new URL for all ${moved} moved
              ${moved === 1 ? 'link' : 'links'}
            </button>`
          : nothing
      }
      <button
        type="button"
        class="button small ghost"
        data-testid="check-now"
        ?disabled=${readOnly || offline || health.checking}
        title=${readOnly ? 'Checking needs a key that may write this config.' : ''}
        @click=${() => actions.linkHealth.checkNow()}
      >
        ${health.checking ? 'Checking…' : 'Check now'}
      </button>
    </span>
    ${
      health.note === null && health.problem === null
        ? nothing
        : html`<p class="muted health-note" data-testid="health-note">
            ${health.note ?? health.problem}
          </p>`
    }
  </div>`;
}

/** A row's badge and, for a link that moved for good, "Use the new URL". */
export function rowHealth(
  { id, link }: { id: string; link: Link },
  health: HealthById | null,
  options: { actions: Actions; readOnly: boolean; now: number },
): TemplateResult | typeof nothing {
  if (health === null) return nothing;
  const newUrl = newUrlOf(id, link, health);
  return html`<span class="row-health">
    ${linkHealthBadge(healthOf(id, link, health), { id, now: options.now })}
    ${
      newUrl === null
        ? nothing
        : html`<button
            type="button"
            class="button small ghost"
            data-testid="use-new-url"
            title=${newUrl}
            ?disabled=${options.readOnly}
            @click=${() => options.actions.linkHealth.useNewUrl(id)}
          >
            Use the new URL${srOnly(` for link ${id}: ${newUrl}`)}
          </button>`
    }
  </span>`;
}
