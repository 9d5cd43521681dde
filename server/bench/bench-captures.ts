/**
 * Capturing the first answers of each scenario from our server and the baseline: the answers the ceiling
 * replays, and whether ours and the baseline's agree.
 */
import type { BenchRun, Target } from './bench-run.js';
import { captureFirst, sameAnswer, sendOnce } from './capture.js';
import type { CapturedResponse } from './ceiling-file.js';
import type { ScenarioResult } from './report.js';
import { PUT_NAMES } from './request-sequences.js';
import type { BenchRequest, RequestSequence } from './request-sequences.js';
import type { Scenario } from './scenarios.js';

/** The requests of a sequence that are sent once before measuring: its first `count`. */
export const firstRequests = (
  sequence: RequestSequence,
  count: number,
): BenchRequest[] =>
  Array.from({ length: Math.min(count, sequence.size) }, (_, i) =>
    sequence.at(i),
  );

/** Deletes the configs the PUT scenario wrote (so captures leave the dataset as it was). */
export async function deletePutNames(
  targets: readonly Target[],
): Promise<void> {
  for (const target of targets) {
    for (const name of PUT_NAMES) {
      await sendOnce(
        target.child.baseUrl,
        { method: 'DELETE', path: `/configs/${name}` },
        'delete',
      );
    }
  }
}

/**
 * Sends the first requests of each scenario to our server and the baseline, checks that every answer
 * is a 2xx and compares the two. Returns our captures (for the ceiling) and the agreement per scenario.
 */
export async function captureScenarios(
  run: BenchRun,
  scenarios: readonly Scenario[],
  servers: { ours: Target; baseline: Target | null },
): Promise<{
  captures: CapturedResponse[][];
  agreement: (ScenarioResult['agreement'] & object)[] | null;
}> {
  run.progress(
    `capturing the first ${run.options.captures} answers of each scenario`,
  );
  const captures: CapturedResponse[][] = [];
  const agreement: { compared: number; same: number }[] = [];
  for (const scenario of scenarios) {
    const requests = firstRequests(scenario.sequence, run.options.captures);
    const capture = (t: Target) =>
      captureFirst(t.child.baseUrl, {
        id: scenario.id,
        title: `${scenario.title} on ${t.label}`,
        requests,
      });
    const ours = await capture(servers.ours);
    captures.push(ours);
    if (servers.baseline !== null) {
      const theirs = await capture(servers.baseline);
      const same = ours.filter((c, i) => {
        const other = theirs[i];
        return other !== undefined && sameAnswer(c, other);
      }).length;
      agreement.push({ compared: ours.length, same });
      const note =
        same === ours.length
          ? 'same answers'
          : `DIFFERENT answers on ${ours.length - same}`;
      run.progress(
        `  ${scenario.id}: ${ours.length} answers; ours and baseline: ${note}`,
      );
    } else {
      run.progress(`  ${scenario.id}: ${ours.length} answers`);
    }
    if (!scenario.read) {
      const targets = [servers.ours, servers.baseline].filter(
        (t): t is Target => t !== null,
      );
      await deletePutNames(targets);
    }
  }
  return {
    captures,
    agreement: servers.baseline === null ? null : agreement,
  };
}
