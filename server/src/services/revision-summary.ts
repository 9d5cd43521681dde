/**
 * A revision's summary (`RevisionSummary`: links added, removed and changed against the revision before,
 * and links held), by the one diff of `shared` (`diffingConfigs`), in steps that may pause: worked out by
 * a write before it is stored (`config-service.ts`), or by history for a revision kept without one
 * (`history-summaries.ts`).
 */
import {
  countLinks,
  diffingConfigs,
  runInSlices,
  summarizeDiff,
} from '@linkconfig/shared';
import type { SliceOptions, Sliced } from '@linkconfig/shared';
import type {
  RevisionSummary,
  SummaryOver,
} from '../storage/config-repository.js';

/** The summary of going from config `before` to config `after` (`null`: no config, as after a delete). */
export function* summarizing(
  before: unknown,
  after: unknown,
): Sliced<RevisionSummary> {
  const diff = yield* diffingConfigs(before, after);
  return { ...summarizeDiff(diff), links: countLinks(after) };
}

/**
 * The summary of a write of `after` over the stored version `over` (`null`: no stored config) holding
 * `before`, worked out in `slices` before the write, for `WriteOptions.summary`.
 */
export async function summaryOver(
  over: { readonly version: number; readonly stored: unknown } | null,
  after: unknown,
  slices: SliceOptions,
): Promise<SummaryOver> {
  return {
    over: over?.version ?? null,
    summary: await runInSlices(
      summarizing(over?.stored ?? null, after),
      slices,
    ),
  };
}
