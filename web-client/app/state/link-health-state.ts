/** The state of the open config's link health (link-health-actions.ts, link-health-badge.ts). */
import type { LinkHealthEntry } from '@linkconfig/shared';

export interface LinkHealthState {
  /** The config the health is of; null: none read yet. */
  name: string | null;
  /** The server's health of each link, by link id. */
  byId: Record<string, LinkHealthEntry>;
  /** A check was asked for and its results are awaited (the page reads the health again meanwhile). */
  checking: boolean;
  /** What the last "Check now" or fix did, or why it could not. */
  note: string | null;
  /** Why the health could not be read (offline, not on the server yet). */
  problem: string | null;
  /** "Use the new URL" is saving. */
  fixing: boolean;
}

export function initialLinkHealth(): LinkHealthState {
  return {
    name: null,
    byId: {},
    checking: false,
    note: null,
    problem: null,
    fixing: false,
  };
}
