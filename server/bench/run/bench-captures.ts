/**
 * Capturing the first answers of each scenario from our server and the others measured (references,
 * baseline): the answers the ceiling replays, and whether the others' answers agree with ours.
 */
import type { BenchRun, Target } from './bench-run.js';
import { captureFirst, sameAnswer, sendOnce } from '../capture.js';
import type { CapturedResponse } from '../ceiling-file.js';
import type { ScenarioResult } from '../report-main.js';
import { PATCH_NAMES } from '../sequences/patch-sequences.js';
import { PUT_NAMES } from '../sequences/request-sequences.js';
import type {
  BenchRequest,
  RequestSequence,
} from '../sequences/request-sequences.js';
import type { Scenario } from '../scenarios.js';

/** The requests of a sequence that are sent once before measuring: its first `count`. */
export const firstRequests = (
  sequence: RequestSequence,
  count: number,
): BenchRequest[] =>
  Array.from({ length: Math.min(count, sequence.size) }, (_, i) =>
    sequence.at(i),
  );

/** Deletes the configs the PUT and edit scenarios wrote (so captures leave the dataset as it was). */
export async function deletePutNames(
  targets: readonly Target[],
): Promise<void> {
  for (const target of targets) {
    for (const name of [...PUT_NAMES, ...PATCH_NAMES]) {
      await sendOnce(
        target.child.baseUrl,
        { method: 'DELETE', path: `/configs/${name}` },
        'delete',
      );
    }
  }
}

/** Sends a scenario's setup requests (if any) to `target`, each required to answer 2xx. */
export async function setUp(
  target: Target,
  scenario: Pick<Scenario, 'id' | 'setup'>,
): Promise<void> {
  for (const [k, request] of (scenario.setup ?? []).entries()) {
    const answer = await sendOnce(
      target.child.baseUrl,
      request,
      `${scenario.id}/setup/${k}`,
    );
    if (answer.status < 200 || answer.status > 299) {
      throw new Error(
        `${scenario.id}: setup ${request.method} ${request.path} on ${target.label} answered ${answer.status}`,
      );
    }
  }
}

/**
 * Sends the first requests of each scenario to our server and the others (references, baseline), checks
 * that every answer is a 2xx and compares each other server's answers with ours. Returns our captures
 * (for the ceiling) and, per scenario, the agreement with each other server.
 */
export async function captureScenarios(
  run: BenchRun,
  scenarios: readonly Scenario[],
  servers: { ours: Target; others: readonly Target[] },
): Promise<{
  captures: CapturedResponse[][];
  agreement: ScenarioResult['agreement'][];
}> {
  run.progress(
    `capturing the first ${run.options.captures} answers of each scenario`,
  );
  const captures: CapturedResponse[][] = [];
  const agreement: ScenarioResult['agreement'][] = [];
  for (const scenario of scenarios) {
    const count = run.options.captures;
    const capture = async (t: Target, sequence: RequestSequence) => {
      await setUp(t, scenario);
      return captureFirst(t.child.baseUrl, {
        id: scenario.id,
        title: `${scenario.title} on ${t.label}`,
        requests: firstRequests(sequence, count),
      });
    };
    const ours = await capture(servers.ours, scenario.sequence);
    captures.push(ours);
    const notes: string[] = [];
    const byServer: ScenarioResult['agreement'] = {};
    for (const other of servers.others) {
      const theirs = await capture(
        other,
        scenario.othersSequence ?? scenario.sequence,
      );
      const same = ours.filter((c, i) => {
        const answer = theirs[i];
        return answer !== undefined && sameAnswer(c, answer);
      }).length;
      byServer[other.label] = { compared: ours.length, same };
      notes.push(
        `${other.label}: ${same === ours.length ? 'same answers' : `DIFFERENT answers on ${ours.length - same}`}`,
      );
    }
    agreement.push(byServer);
    run.progress(
      `  ${scenario.id}: ${ours.length} answers${notes.length > 0 ? `; ${notes.join(', ')}` : ''}`,
    );
    if (!scenario.read) {
      await deletePutNames([servers.ours, ...servers.others]);
    }
  }
  return { captures, agreement };
}
