/**
 * Summaries for a page of history. A revision's summary is kept with it when it is written
 * (`WriteOptions.summary`), so a page reads them (`HistoryRepository.summaries`) and rebuilds nothing.
 * A revision kept without one (written before summaries were kept, restored from a backup, written by a
 * tool beside the service, or by a write that raced another) is summarized when a page first lists it,
 * and the summary kept: a lazy fill, bounded per request by {@link FILL_BYTES} of text, in slices. A page
 * that reaches the bound ends before the first revision still without a summary; its `next` goes on
 * from there, so the rest is filled by the pages that follow.
 */
import { runInSlices } from '@linkconfig/shared';
import type { SliceOptions, Sliced } from '@linkconfig/shared';
import type {
  HistoryRepository,
  RevisionMeta,
  RevisionSummary,
  StoredRevision,
} from '../storage/config-repository.js';
import { summarizing } from './revision-summary.js';

/**
 * Most bytes of revision text one page rebuilds, parses and compares to fill summaries (at least the
 * newest missing revision's, whatever its size): 1,000 revisions of a 120 KB config take about eight
 * pages to fill, a 9 MB config's one or two revisions per page.
 */
export const FILL_BYTES = 16 * 1024 * 1024;
/** Most revisions read at once while filling (their texts are held together). */
const FILL_BATCH = 50;
/** Most bytes of text read at once while filling (a quarter of the page's bound at most). */
const BATCH_BYTES = 4 * 1024 * 1024;

/** What filling needs of the repository. */
type Reads = Pick<HistoryRepository, 'revisions' | 'keepSummaries'>;

/** One revision parsed and summarized against the one before, each revision a step of its own. */
function* summarizingBatch(
  revisions: readonly StoredRevision[],
  from: number,
): Sliced<{ rev: number; summary: RevisionSummary }[]> {
  const out: { rev: number; summary: RevisionSummary }[] = [];
  let before: unknown = null;
  for (const revision of revisions) {
    const config =
      revision.json === null ? null : (JSON.parse(revision.json) as unknown);
    yield;
    if (revision.meta.rev >= from) {
      const summary = yield* summarizing(before, config);
      out.push({ rev: revision.meta.rev, summary });
    }
    before = config;
  }
  return out;
}

/**
 * The newest run of `missing` (newest first) that one batch reads: consecutive revisions, at most
 * {@link FILL_BATCH}, about {@link BATCH_BYTES} of text (at least one).
 */
function nextBatch(
  missing: readonly RevisionMeta[],
  start: number,
  maxBytes: number,
): number {
  let end = start + 1;
  let bytes = missing[start]?.size ?? 0;
  while (end < missing.length && end - start < FILL_BATCH) {
    const meta = missing[end];
    if (meta === undefined || meta.rev !== (missing[end - 1]?.rev ?? 0) - 1)
      break;
    bytes += meta.size ?? 0;
    if (bytes > maxBytes) break;
    end++;
  }
  return end;
}

/**
 * Works out and keeps the summaries of `missing` (revisions of `name` without one, newest first), newest
 * first, until `budget` bytes of text have been read; returns those it worked out.
 */
export async function fillSummaries(
  repo: Reads,
  page: {
    readonly name: string;
    readonly missing: readonly RevisionMeta[];
    /** Bytes of text to read at most (default {@link FILL_BYTES}). */
    readonly budget?: number | undefined;
  },
  slices: SliceOptions,
): Promise<Map<number, RevisionSummary>> {
  const { name, missing, budget = FILL_BYTES } = page;
  const batchBytes = Math.min(BATCH_BYTES, budget / 4);
  const filled = new Map<number, RevisionSummary>();
  let spent = 0;
  for (let start = 0; start < missing.length && spent < budget;) {
    const end = nextBatch(missing, start, batchBytes);
    const to = missing[start]?.rev ?? 0;
    const from = missing[end - 1]?.rev ?? to;
    // From the revision before, which the oldest of the batch is compared with (absent when pruned).
    const revisions = await repo.revisions(name, {
      from: Math.max(1, from - 1),
      to,
    });
    for (const r of revisions) spent += r.json?.length ?? 0;
    const entries = await runInSlices(
      summarizingBatch(revisions, from),
      slices,
    );
    for (const { rev, summary } of entries) filled.set(rev, summary);
    // Kept for the next page; a failure to keep them only means they are worked out again then.
    await repo.keepSummaries(name, entries).catch(() => undefined);
    start = end;
  }
  return filled;
}
