import { diffConfigs, summarizeDiff } from '@linkconfig/shared';
import type {
  AuditEntry,
  ConfigDiff,
  HistoryEntry,
  LinkConfig,
  RevisionOutput,
} from '@linkconfig/shared';
import { DomainError } from '../errors.js';
import { ReceivedJson } from '../received-json.js';
import type {
  ConfigRepository,
  RevisionMeta,
  StoredRevision,
} from '../storage/config-repository.js';
import { ConfigVersion } from '../versions/config-version.js';
import type {
  ConditionHeaders,
  ConfigService,
  WriteOrigin,
} from './config-service.js';

/** Revisions read at once while summarizing a page (bounds the texts held together). */
const SUMMARY_BATCH = 50;

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

/**
 * The rules of history: pages of revisions with what each changed, one revision as it was, the difference
 * between two, restoring a revision (or some of its links) as a new write, and the audit trail. What is
 * stored is the repository's (`revision-write.ts`); restores are writes like any other
 * (`ConfigService.put`, op `restore`).
 */
export class HistoryService {
  readonly #repo: ConfigRepository;
  readonly #configs: ConfigService;

  constructor(deps: { repository: ConfigRepository; configs: ConfigService }) {
    this.#repo = deps.repository;
    this.#configs = deps.configs;
  }

  /** Up to `limit` revisions below `before`, newest first, each with its change summary. */
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
    const shown = metas.slice(0, page.limit);
    const summaries = await this.#summaries(name, shown);
    return {
      revisions: shown.map((meta) => ({
        rev: meta.rev,
        op: meta.op,
        at: meta.at,
        by: meta.by,
        etag: meta.etag,
        size: meta.size,
        summary: summaries.get(meta.rev) ?? {
          added: 0,
          removed: 0,
          changed: 0,
        },
      })),
      next: metas.length > page.limit ? (shown.at(-1)?.rev ?? null) : null,
    };
  }

  /** Link counts of each revision against the one before, reading the texts in batches, oldest first. */
  async #summaries(name: string, metas: readonly RevisionMeta[]) {
    const summaries = new Map<number, HistoryEntry['summary']>();
    const newest = metas[0]?.rev;
    const oldest = metas.at(-1)?.rev;
    if (newest === undefined || oldest === undefined) return summaries;
    let before: unknown = null;
    for (
      let from = Math.max(1, oldest - 1);
      from <= newest;
      from += SUMMARY_BATCH
    ) {
      const to = Math.min(newest, from + SUMMARY_BATCH - 1);
      for (const revision of await this.#repo.revisions(name, { from, to })) {
        const config = parsed(revision);
        if (revision.meta.rev >= oldest) {
          summaries.set(
            revision.meta.rev,
            summarizeDiff(diffConfigs(before, config)),
          );
        }
        before = config;
      }
    }
    return summaries;
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

  /** One revision as stored then, its URLs sanitized like every answer. */
  async revision(name: string, rev: number): Promise<RevisionOutput> {
    const { meta, json } = await this.#content(name, rev);
    const view = new ConfigVersion({
      name,
      json,
      createdAt: meta.at,
      updatedAt: meta.at,
      version: meta.id,
    });
    return {
      config: view.entry.config as LinkConfig,
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
      return parsed(revision);
    };
    const diff = diffConfigs(await side(range.from), await side(to));
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
