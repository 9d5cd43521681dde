/**
 * The main phase: the distinct-request table (ours, the baseline, the ceiling and the hot cache).
 */
import type { BenchRun, LoadSummary, Target } from './bench-run.js';
import { captureScenarios } from './bench-captures.js';
import type { ScenarioResult } from './report.js';
import { repeated } from './request-sequences.js';
import type { RequestSequence } from './request-sequences.js';
import { buildScenarios } from './scenarios.js';
import type { Scenario } from './scenarios.js';

/** Results of the main phase. */
export interface MainResults {
  loaded: { ours: LoadSummary; baseline: LoadSummary | null };
  rssAfterRunKiB: { ours: number | null; baseline: number | null };
  results: ScenarioResult[];
}

/**
 * The main phase: every scenario on the configured dataset; ours, the baseline and the ceiling on the
 * distinct requests, then ours on one request repeated (hot cache).
 */
export async function runMain(run: BenchRun): Promise<MainResults> {
  const { configs, links } = run.options;
  run.progress(`phase main: ${configs} configs × ${links} links`);
  const ours: Target = { label: 'ours', child: await run.startOurs() };
  const baseline: Target | null = run.options.baseline
    ? { label: 'baseline', child: await run.startBaseline() }
    : null;
  const loaded = {
    ours: await run.load(ours, configs),
    baseline: baseline === null ? null : await run.load(baseline, configs),
  };
  const scenarios = run.select(buildScenarios({ configs, links }));
  const { captures, agreement } = await captureScenarios(run, scenarios, {
    ours,
    baseline,
  });
  const ceiling: Target | null = run.options.ceiling
    ? { label: 'ceiling', child: await run.startCeiling(captures.flat()) }
    : null;
  const results: ScenarioResult[] = [];
  for (const [i, scenario] of scenarios.entries()) {
    const title = scenario.title;
    run.progress(
      `phase main · scenario ${i + 1}/${scenarios.length}: ${title}`,
    );
    const answers = captures[i] ?? [];
    const oursResult = await run.measure(ours, scenario.sequence, { title });
    const baselineResult =
      baseline === null
        ? null
        : await run.measure(baseline, scenario.sequence, { title });
    const ceilingResult =
      ceiling === null
        ? null
        : await run.measure(
            ceiling,
            ceilingSequence(scenario, answers.length),
            { title, warmup: false },
          );
    const hot =
      run.options.hot && scenario.read && scenario.sequence.size > 1
        ? await run.measure(ours, repeated(scenario.sequence.at(0)), {
            title: `${title} (hot cache)`,
            warmup: false,
          })
        : null;
    const bytes = answers.reduce(
      (sum, c) => sum + Buffer.from(c.body, 'base64').length,
      0,
    );
    results.push({
      id: scenario.id,
      title,
      target: scenario.target,
      ours: oursResult,
      baseline: baselineResult,
      ceiling: ceilingResult,
      // One request repeated is what the distinct run is for `GET /configs`.
      hot: scenario.sequence.size > 1 ? hot : oursResult,
      responseBytes: answers.length === 0 ? 0 : bytes / answers.length,
      agreement: agreement?.[i] ?? null,
    });
  }
  const rssAfterRunKiB = {
    ours: await ours.child.rssKiB(),
    baseline: (await baseline?.child.rssKiB()) ?? null,
  };
  await ours.child.stop();
  await baseline?.child.stop();
  await ceiling?.child.stop();
  return { loaded, rssAfterRunKiB, results };
}

/**
 * What the ceiling is asked for a scenario: the scenario's requests (same methods and bodies), each sent
 * to the route of one of the `answers` captured answers in turn, so the ceiling replays answers of the
 * real sizes.
 */
export function ceilingSequence(
  scenario: Pick<Scenario, 'id' | 'sequence'>,
  answers: number,
): RequestSequence {
  const { id, sequence } = scenario;
  return {
    size: sequence.size,
    at: (i) => ({
      ...sequence.at(i),
      path: `/${id}/${i % Math.max(1, answers)}`,
    }),
  };
}
