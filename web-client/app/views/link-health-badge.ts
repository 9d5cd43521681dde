/**
 * A link's health as a badge (OK, Moved, Broken, Unreachable, Blocked, Not checked) that opens to its
 * evidence: when it was last checked, the status or reason, where it moved, failures not yet confirmed.
 * A failure not yet confirmed shows as "Failing, not confirmed" over the state it leaves unchanged (the
 * confirm rule). A `<details>` rather than a hover tooltip, so it opens by keyboard and touch too. Any list of links
 * can show it (the links table, other tables of links).
 */
import type { LinkHealthEntry } from '@linkconfig/shared';
import { html } from 'lit-html';
import type { TemplateResult } from 'lit-html';
import { STATE_WORDS, evidence, stateTone } from '../model/link-health.js';
import { srOnly } from './view-parts.js';

/** What {@link linkHealthBadge} shows. */
export interface BadgeOptions {
  /** The link's id, for screen readers ("Broken: link docs"). */
  id: string;
  /** Now (ms), for "checked 5 minutes ago". */
  now: number;
}

/**
 * The badge of a link whose URL has health `entry`; `undefined`: the server has none for the link as it
 * is now (a new link, or its URL was edited since the check).
 */
export function linkHealthBadge(
  entry: LinkHealthEntry | undefined,
  options: BadgeOptions,
): TemplateResult {
  const state = entry?.state ?? 'unchecked';
  const failing = entry !== undefined && entry.failingSince !== null;
  const lines =
    entry === undefined
      ? ['Not checked yet: the server checks it once this version is saved.']
      : evidence(entry, options.now);
  return html`<details
    class="health"
    data-testid="link-health"
    data-state=${state}
    data-tone=${failing && stateTone(state) !== 'bad' ? 'warn' : stateTone(state)}
    ?data-failing=${failing}
  >
    <summary class="health-badge">
      ${failing && stateTone(state) !== 'bad' ? 'Failing, not confirmed' : STATE_WORDS[state]}${srOnly(
        `: link ${options.id}, details`,
      )}
    </summary>
    <div class="health-details" data-testid="link-health-details">
      ${lines.map((line) => html`<p>${line}</p>`)}
    </div>
  </details>`;
}
