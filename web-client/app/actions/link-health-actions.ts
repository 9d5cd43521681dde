/**
 * The open config's link health: read from the server when the config opens or is saved, "Check now"
 * (the server checks politely, so the page reads the health again every few seconds until every link
 * was checked anew, for a few minutes at most), and "Use the new URL" for links that moved for good:
 * one link or all of them, put in the draft and saved through the page's one save, as one revision.
 * Link health lives on the server only; offline, the badges simply stay away.
 */
import {
  createLinkHealthClient,
  RemoteStoreError,
} from '@linkconfig/web-client';
import type { LinkHealthClient } from '@linkconfig/web-client';
import type {
  ConfigLinkHealthOutput,
  LinkHealthEntry,
} from '@linkconfig/shared';
import { movedLinks, newUrlOf } from '../model/link-health.js';
import { changeDraft } from './form-actions.js';
import type { PageContext } from './page-context.js';
import { writeRefusal } from '../state/status-model.js';

/** How often the health is read again while a check runs. */
export const FOLLOW_EVERY_MS = 2500;
/** How long a check is followed at most (the server paces its requests to each site). */
export const FOLLOW_FOR_MS = 5 * 60_000;

/** What a link that is never checked says (docs/link-health.md). */
const NOT_HTTP = 'not an http(s) URL';

export class LinkHealthActions {
  /** Counts reads, so a slow answer never replaces a later one. */
  private run = 0;
  private follow: ReturnType<typeof setTimeout> | null = null;

  constructor(
    private readonly page: PageContext,
    /** The page's save of the open config (config-actions.ts). */
    private readonly save: () => Promise<void>,
  ) {}

  private client(): LinkHealthClient | null {
    const session = this.page.session();
    return session === null ? null : createLinkHealthClient(session.caller);
  }

  /** Reads the health of config `name` (the open one); quiet when the server cannot answer. */
  async load(name: string): Promise<ConfigLinkHealthOutput | null> {
    const client = this.client();
    const health = this.page.state.linkHealth;
    if (health.name !== name) {
      this.stopFollowing();
      Object.assign(health, {
        name,
        byId: {},
        checking: false,
        note: null,
        problem: null,
      });
    }
    if (client === null) return null;
    const run = ++this.run;
    let answer: ConfigLinkHealthOutput | null;
    try {
      answer = await client.ofConfig(name);
    } catch (error) {
      if (run === this.run && health.name === name)
        health.problem = `Link health could not be read: ${this.page.describe(error)}`;
      return null;
    }
    if (run !== this.run || health.name !== name) return null;
    health.problem =
      answer === null
        ? 'Link health shows once this config is on the server.'
        : null;
    health.byId = Object.fromEntries(
      (answer?.links ?? []).map((entry) => [entry.id, entry]),
    );
    return answer;
  }

  /** Asks the server to check the open config's links now, then follows the results. */
  async checkNow(): Promise<void> {
    const open = this.page.state.open;
    const client = this.client();
    const health = this.page.state.linkHealth;
    if (open === null || client === null || health.checking) return;
    const name = open.name;
    const before = { ...this.page.raw(health.byId) };
    try {
      const { urls } = await client.checkNow(name);
      health.checking = true;
      health.note = `Checking ${urls} ${urls === 1 ? 'address' : 'addresses'}: sites are asked politely, one request a second each, so this may take a while.`;
    } catch (error) {
      health.note =
        error instanceof RemoteStoreError && error.status === 409
          ? 'Link checking is off on this server (it is turned on with LINK_CHECK=on).'
          : `Not checked: ${this.page.describe(error)}`;
      this.page.announce(health.note);
      return;
    }
    this.page.announce(health.note);
    this.followUntilChecked(name, before, Date.now() + FOLLOW_FOR_MS);
  }

  /** Reads the health again every few seconds until every checkable link was checked since `before`. */
  private followUntilChecked(
    name: string,
    before: Record<string, LinkHealthEntry>,
    until: number,
  ): void {
    this.stopFollowing();
    this.follow = setTimeout(() => {
      this.follow = null;
      void (async () => {
        const answer = await this.load(name);
        const health = this.page.state.linkHealth;
        if (health.name !== name) return;
        const waiting =
          answer === null ||
          answer.links.some((entry) => notCheckedSince(entry, before));
        if (waiting && Date.now() < until) {
          this.followUntilChecked(name, before, until);
          return;
        }
        health.checking = false;
        health.note = waiting
          ? 'Some links are still waiting for their check; their badges change once it is done.'
          : 'Every link was checked.';
        this.page.announce(health.note);
      })();
    }, FOLLOW_EVERY_MS);
  }

  private stopFollowing(): void {
    if (this.follow !== null) clearTimeout(this.follow);
    this.follow = null;
  }

  /**
   * Puts the new URL of link `id` (of every moved link when absent) in the draft, and saves it through
   * the page's save: one revision however many links. With unsaved edits, they are only put in the
   * draft, to be saved with the rest.
   */
  async useNewUrl(id?: string): Promise<void> {
    const { state } = this.page;
    const open = state.open;
    const health = state.linkHealth;
    if (
      open === null ||
      health.fixing ||
      writeRefusal(state, open.name) !== null
    )
      return;
    const links = open.draft.allLinks;
    const fixes =
      id === undefined
        ? movedLinks(links, health.byId)
        : [{ id, url: newUrlOf(id, links[id], health.byId) }].filter(
            (fix): fix is { id: string; url: string } => fix.url !== null,
          );
    if (fixes.length === 0) return;
    const hadEdits = open.dirty;
    const allLinks = { ...links };
    for (const fix of fixes) {
      const link = allLinks[fix.id];
      if (link !== undefined) allLinks[fix.id] = { ...link, url: fix.url };
    }
    changeDraft(open, { ...open.draft, allLinks });
    const what =
      fixes.length === 1
        ? `link “${fixes[0]?.id ?? ''}”`
        : `${fixes.length} moved links`;
    if (hadEdits) {
      health.note = `The new URL of ${what} is in your unsaved edits: save to keep it.`;
      this.page.announce(health.note);
      return;
    }
    health.fixing = true;
    try {
      await this.save();
    } finally {
      health.fixing = false;
    }
    if (!open.dirty) {
      health.note = `Saved the new URL of ${what}.`;
      this.page.announce(health.note);
    }
  }
}

/** Whether `entry` waits for the check asked for: a checkable link not checked since `before`. */
function notCheckedSince(
  entry: LinkHealthEntry,
  before: Record<string, LinkHealthEntry>,
): boolean {
  if (entry.reason === NOT_HTTP) return false;
  if (entry.checkedAt === null) return true;
  const earlier = before[entry.id];
  return earlier !== undefined && earlier.checkedAt === entry.checkedAt;
}
