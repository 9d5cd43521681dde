/**
 * The Duplicates section and the link form's warning: links whose URLs are one after the shared
 * normalization (`normalizeUrl`, the rule import uses), within the open config and, on request, across
 * the configs this browser may read; two links of the open config merged (`planLinkMerge`: fields per
 * side, tags united, the removed id's references rewritten through the grammar) as one save, with Undo in
 * one step.
 */
import {
  findDuplicates,
  linksWithUrl,
  planLinkMerge,
} from '@linkconfig/shared';
import type { LinkConfig, LinkMergeSide } from '@linkconfig/shared';
import type { ConfigActions } from './config-actions.js';
import type { PageContext } from './page-context.js';

/** How long typing a URL must pause before the page looks for links that have it. */
export const URL_WARNING_DELAY_MS = 250;

/** Most configs read for duplicates across configs at once (each is one read of the store). */
export const ACROSS_MAX_CONFIGS = 50;

export class DuplicatesActions {
  private urlTimer: ReturnType<typeof setTimeout> | undefined;
  /** Counts reads across configs, so an older one never replaces a newer one. */
  private acrossRun = 0;

  constructor(
    private readonly page: PageContext,
    private readonly configs: ConfigActions,
  ) {}

  /** The section was unfolded or folded. */
  show(shown: boolean): void {
    this.page.state.duplicates.shown = shown;
  }

  /** The link form's URL changed: after a pause, the links of the draft that already have it. */
  urlTyped(url: string): void {
    clearTimeout(this.urlTimer);
    this.urlTimer = setTimeout(() => {
      const open = this.page.state.open;
      const duplicates = this.page.state.duplicates;
      const typed = url.trim();
      if (open === null || typed === '') {
        duplicates.urlWarning = null;
        return;
      }
      const editing = this.page.state.link.editing ?? undefined;
      const ids = linksWithUrl(this.page.raw(open.draft), typed, editing);
      duplicates.urlWarning = ids.length === 0 ? null : { url: typed, ids };
    }, URL_WARNING_DELAY_MS);
  }

  /** Starts merging `remove` into `keep` (both links of the open config). */
  startMerge(keep: string, remove: string): void {
    const open = this.page.state.open;
    if (open === null) return;
    this.page.state.duplicates.merge = {
      name: open.name,
      keep,
      remove,
      picks: {},
    };
    this.page.state.duplicates.problem = null;
    this.page.focus('#merge-heading');
  }

  /** Keeps the other link of the merge instead. */
  swap(): void {
    const merge = this.page.state.duplicates.merge;
    if (merge === null) return;
    this.page.state.duplicates.merge = {
      name: merge.name,
      keep: merge.remove,
      remove: merge.keep,
      picks: {},
    };
  }

  /** Takes field `field` of the merged link from `side`. */
  pick(field: string, side: LinkMergeSide): void {
    const merge = this.page.state.duplicates.merge;
    if (merge !== null) merge.picks = { ...merge.picks, [field]: side };
  }

  cancelMerge(): void {
    this.page.state.duplicates.merge = null;
    this.page.state.duplicates.problem = null;
  }

  /** Merges the two links and saves: one save, one revision. */
  async applyMerge(): Promise<void> {
    const open = this.page.state.open;
    const duplicates = this.page.state.duplicates;
    const merge = duplicates.merge;
    if (open === null || merge === null || merge.name !== open.name) return;
    if (open.dirty) {
      duplicates.problem =
        'Save or revert your unsaved edits first: a merge is saved on its own.';
      return;
    }
    const before = this.draft();
    let plan: ReturnType<typeof planLinkMerge>;
    try {
      const { keep, remove, picks } = this.page.raw(merge);
      plan = planLinkMerge(before, { keep, remove, picks });
    } catch {
      duplicates.problem = `“${merge.keep}” and “${merge.remove}” are no longer both in this config.`;
      return;
    }
    const references = plan.references.map(
      (change) => `${change.where}: ${change.before} → ${change.after}`,
    );
    const summary = `“${merge.remove}” into “${merge.keep}”`;
    await this.configs.saveAs(plan.next as LinkConfig);
    if (open.saveProblem !== null) return;
    duplicates.applied = { name: open.name, before, summary, references };
    duplicates.merge = null;
    duplicates.problem = null;
    this.page.focus('[data-testid="merge-applied"]');
    this.page.announce(
      `Merged ${summary}; ${references.length} ${references.length === 1 ? 'expression' : 'expressions'} now name “${merge.keep}”.`,
    );
  }

  /** Takes the last merge back: the config as it was, saved again (one more revision). */
  async undo(): Promise<void> {
    const open = this.page.state.open;
    const applied = this.page.state.duplicates.applied;
    if (open === null || applied === null || applied.name !== open.name) return;
    await this.configs.saveAs(this.page.raw(applied.before));
    if (open.saveProblem !== null) return;
    this.page.state.duplicates.applied = null;
    this.page.announce(`Undid the merge of ${applied.summary}.`);
  }

  /**
   * Reads the other configs this browser may read (the list shows only those; at most
   * {@link ACROSS_MAX_CONFIGS}) and finds the URLs that links of several configs share.
   */
  async lookAcross(): Promise<void> {
    const session = this.page.session();
    const open = this.page.state.open;
    if (!session || open === null) return;
    const run = ++this.acrossRun;
    const duplicates = this.page.state.duplicates;
    duplicates.across = 'reading';
    const names = this.page.state.configs
      .map((item) => item.name)
      .filter((name) => name !== open.name);
    const read: { name: string; config: unknown }[] = [
      { name: open.name, config: this.page.raw(open.draft) },
    ];
    const skipped = names.slice(ACROSS_MAX_CONFIGS);
    for (const name of names.slice(0, ACROSS_MAX_CONFIGS)) {
      const config = await session.store.load(name).catch(() => null);
      if (run !== this.acrossRun) return;
      if (config === null) skipped.push(name);
      else read.push({ name, config });
    }
    // The open config's URLs that other configs hold too: what this config's section asks.
    const groups = findDuplicates(read).filter(
      (group) =>
        group.members.some((m) => m.config === open.name) &&
        new Set(group.members.map((m) => m.config)).size > 1,
    );
    duplicates.across = { name: open.name, groups, read: read.length, skipped };
    this.page.announce(
      `${groups.length} ${groups.length === 1 ? 'URL is' : 'URLs are'} in more than one config.`,
    );
  }

  /** The open draft as plain data. */
  private draft(): LinkConfig {
    const open = this.page.state.open;
    return structuredClone(this.page.raw(open?.draft)) as LinkConfig;
  }
}
