import {
  diffingConfigs,
  runInSlices,
  sanitizingConfigLinks,
} from '@linkconfig/shared';
import type {
  AuditEntry,
  ConfigDiff,
  HistoryEntry,
  LinkConfig,
  RevisionOutput,
  SliceOptions,
} from '@linkconfig/shared';
import { DomainError } from '../errors.js';
import { ReceivedJson } from '../received-json.js';
import type {
  ConfigRepository,
  RevisionSummary,
  StoredRevision,
} from '../storage/config-repository.js';
import { EVENT_LOOP_SLICES } from '../event-loop.js';
import { ConfigVersion } from '../versions/config-version.js';
import { fillSummaries } from './history-summaries.js';
import type { ConfigService } from './config-service.js';
import type { ConditionHeaders, WriteOrigin } from './write-conditions.js';

/** Pages of the audit trail read at most to fill one page for a caller who may read only some names. */
const AUDIT_SCANS = 10;

const notFound = (name: string): DomainError =>
  new DomainError('not_found', `config "${name}" has no history`);
const noRevision = (name: string, rev: number): DomainError =>
  new DomainError(
    'not_found',
    `config "${name}" has no revision ${rev} with content`,
  );

/** A revision's content parsed (`null` for a delete, which holds no config). */
const parsed = (revision: StoredRevision): unknown =>
  revision.json === null ? null : (JSON.parse(revision.json) as unknown);
/** Lets the event loop take a turn between two pieces of work. */
const pause = (slices: SliceOptions): Promise<void> => slices.pause();

/**
 * The rules of history: pages of revisions with what each changed, one revision as it was, the difference
 * between two, restoring a revision (or some of its links) as a new write, and the audit trail. What is
 * stored is the repository's (`revision-write.ts`); restores are writes like any other
 * (`ConfigService.put`, op `restore`). A page costs what it answers: each revision's summary is kept with
 * it (`history-summaries.ts`). One revision or a diff of large configs is worked out in slices
 * ({@link EVENT_LOOP_SLICES} unless told otherwise), so other requests are answered meanwhile.
 */
export class HistoryService {
  readonly #repo: ConfigRepository;
  readonly #configs: ConfigService;
  readonly #slices: SliceOptions;
  readonly #fillBytes: number | undefined;

  constructor(deps: {
    repository: ConfigRepository;
    configs: ConfigService;
    slices?: SliceOptions;
    /** Bytes of revision text a page reads at most to fill summaries (default `FILL_BYTES`). */
    fillBytes?: number;
  }) {
    this.#repo = deps.repository;
    this.#configs = deps.configs;
    this.#slices = deps.slices ?? EVENT_LOOP_SLICES;
    this.#fillBytes = deps.fillBytes;
  }

  /**
   * Up to `limit` revisions below `before`, newest first, each with its change summary, read as kept. A
   * page that had to fill summaries (`history-summaries.ts`) and reached its bound ends early, with a
   * `next`.
   */
  async history(
    name: string,
    page: { readonly limit: number; readonly before?: number | undefined },
  ): Promise<{ revisions: HistoryEntry[]; next: number | null }> {
    const metas = await this.#repo.history(name, {
      limit: page.limit + 1,
      before: page.before,
    });
    if (metas.length === 0 && (await this.#neverExisted(name))) {
      throw notFound(name);
    }
    let shown = metas.slice(0, page.limit);
    const newest = shown[0]?.rev ?? 0;
    const oldest = shown.at(-1)?.rev ?? 0;
    const summaries =
      shown.length === 0
        ? new Map<number, RevisionSummary>()
        : await this.#repo.summaries(name, { from: oldest, to: newest });
    const missing = shown.filter((meta) => !summaries.has(meta.rev));
    if (missing.length > 0) {
      const filled = await fillSummaries(
        this.#repo,
        { name, missing, budget: this.#fillBytes },
        this.#slices,
      );
      for (const [rev, summary] of filled) summaries.set(rev, summary);
    }
    // Ends before the first revision still without a summary (never before the first of the page).
    const cut = shown.findIndex((meta) => !summaries.has(meta.rev));
    if (cut > 0) shown = shown.slice(0, cut);
    const more = cut > 0 || metas.length > page.limit;
    return {
      revisions: shown.map((meta) => {
        const kept = summaries.get(meta.rev);
        return {
          rev: meta.rev,
          op: meta.op,
          at: meta.at,
          by: meta.by,
          etag: meta.etag,
          size: meta.size,
          summary: {
            added: kept?.added ?? 0,
            removed: kept?.removed ?? 0,
            changed: kept?.changed ?? 0,
          },
        };
      }),
      next: more ? (shown.at(-1)?.rev ?? null) : null,
    };
  }

  async #neverExisted(name: string): Promise<boolean> {
    return (await this.#repo.history(name, { limit: 1 })).length === 0;
  }

  /** The revision with content, or a 404 (unknown, or a delete). */
  async #content(
    name: string,
    rev: number,
  ): Promise<StoredRevision & { json: string }> {
    const [revision] = await this.#repo.revisions(name, { from: rev, to: rev });
    if (revision === undefined || revision.json === null) {
      if (await this.#neverExisted(name)) throw notFound(name);
      throw noRevision(name, rev);
    }
    return { meta: revision.meta, json: revision.json };
  }

  /** One revision as stored then, its URLs sanitized like every answer (in slices). */
  async revision(name: string, rev: number): Promise<RevisionOutput> {
    const { meta, json } = await this.#content(name, rev);
    await pause(this.#slices);
    const { stored } = new ConfigVersion({
      name,
      json,
      createdAt: meta.at,
      updatedAt: meta.at,
      version: meta.id,
    });
    await pause(this.#slices);
    const config = await runInSlices(
      sanitizingConfigLinks(stored),
      this.#slices,
    );
    return {
      config: config as LinkConfig,
      meta: { rev: meta.rev, op: meta.op, at: meta.at, by: meta.by },
    };
  }

  /** What changed from revision `from` to revision `to` (default: the newest; a delete holds no links). */
  async diff(
    name: string,
    range: { readonly from: number; readonly to?: number | undefined },
  ): Promise<ConfigDiff & { from: number; to: number }> {
    const [newest] = await this.#repo.history(name, { limit: 1 });
    if (newest === undefined) throw notFound(name);
    const to = range.to ?? newest.rev;
    const side = async (rev: number): Promise<unknown> => {
      const [revision] = await this.#repo.revisions(name, {
        from: rev,
        to: rev,
      });
      if (revision === undefined) {
        throw new DomainError(
          'not_found',
          `config "${name}" has no revision ${rev}`,
        );
      }
      await pause(this.#slices);
      const config = parsed(revision);
      await pause(this.#slices);
      return config;
    };
    // One side after the other, the event loop taking turns between the steps, the comparison in slices.
    const before = await side(range.from);
    const after = await side(to);
    const diff = await runInSlices(diffingConfigs(before, after), this.#slices);
    return { ...diff, from: range.from, to };
  }

  /**
   * Writes revision `rev` again as the current config (undeleting a deleted one), or only `links` of it
   * into the current config (a link absent from the revision is removed). A write like a PUT: same
   * validation and `If-Match`, op `restore`.
   */
  async restore(
    name: string,
    request: {
      readonly rev: number;
      readonly links?: readonly string[] | undefined;
      readonly conditions: Pick<ConditionHeaders, 'ifMatch'>;
    },
    origin: WriteOrigin,
  ): Promise<{ rev: number; etag: string }> {
    const { json } = await this.#content(name, request.rev);
    const write = { ...origin, op: 'restore' as const };
    if (request.links === undefined) {
      return this.#configs.put(name, new ReceivedJson(JSON.parse(json), json), {
        ...request.conditions,
        ...write,
      });
    }
    const old =
      (JSON.parse(json) as { allLinks?: Record<string, unknown> }).allLinks ??
      {};
    const ids = request.links;
    // Applied to the version the write commits over: no 412 unless the caller sent If-Match.
    return this.#configs
      .update(
        name,
        // eslint-disable-next-line require-yield -- a change that never needs to pause
        function* (stored) {
          const links = { ...(stored['allLinks'] as Record<string, unknown>) };
          for (const id of ids) {
            if (Object.hasOwn(old, id)) links[id] = old[id];
            else delete links[id];
          }
          return { ...stored, allLinks: links };
        },
        { ...request.conditions, ...write },
      )
      .catch((error: unknown) => {
        if (error instanceof DomainError && error.code === 'not_found') {
          throw new DomainError(
            'not_found',
            `config "${name}" does not exist; restore the whole revision to undelete it`,
          );
        }
        throw error;
      });
  }

  /**
   * Revisions of every config (or of `config`) after change id `since`, oldest first, as a caller who
   * may read only the names `readable` accepts sees them: other configs' entries are skipped while the
   * page is filled, so neither the entries nor `next` tell anything of them (an unreadable `config`
   * answers like a name with no history).
   */
  async audit(
    page: {
      readonly since: number;
      readonly limit: number;
      readonly config?: string | undefined;
    },
    readable: (name: string) => boolean,
  ): Promise<{ entries: AuditEntry[]; next: number | null }> {
    if (page.config !== undefined && !readable(page.config))
      return { entries: [], next: null };
    const entries: AuditEntry[] = [];
    let afterId = page.since;
    for (let scans = 0; scans < AUDIT_SCANS; scans++) {
      const metas = await this.#repo.auditTrail({
        afterId,
        limit: page.limit,
        name: page.config,
      });
      for (const m of metas) {
        afterId = m.id;
        if (!readable(m.name)) continue;
        entries.push({
          id: m.id,
          name: m.name,
          rev: m.rev,
          op: m.op,
          at: m.at,
          by: m.by,
          requestId: m.requestId,
        });
        if (entries.length === page.limit) return { entries, next: m.id };
      }
      if (metas.length < page.limit) return { entries, next: null };
    }
    // Many unreadable entries in a row: the next page goes on after them (change ids are one sequence
    // for the whole database, so their gaps say no more than this `next` does).
    return { entries, next: afterId };
  }

  /** Names deleted and restorable. */
  deleted(): Promise<string[]> {
    return this.#repo.deletedNames();
  }
}
