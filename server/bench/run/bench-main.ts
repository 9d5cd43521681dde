/**
 * The main phase: the distinct-request tables (ours, the references or the in-repo baseline, the ceiling
 * and the hot cache).
 */
import { DEFAULT_CACHE_BYTES } from '../../src/cache/cache-policy.js';
import type { BenchRun, LoadSummary, Target } from './bench-run.js';
import { captureScenarios, setUp } from './bench-captures.js';
import { memoryBreakdown } from '../memory-breakdown.js';
import type { MemoryBreakdown } from '../memory-breakdown.js';
import { allWorkersAnswer } from '../workers-ready.js';
import { ExternalServer } from '../reference-server.js';
import type { OtherResult, ScenarioResult } from '../report-main.js';
import { repeated } from '../sequences/request-sequences.js';
import type { RequestSequence } from '../sequences/request-sequences.js';
import { buildScenarios } from '../scenarios.js';
import type { Scenario } from '../scenarios.js';

/** Results of the main phase. */
export interface MainResults {
  /** The dataset load per server label (ours, each reference, the baseline). */
  loaded: Record<string, LoadSummary>;
  /** RSS after the run per server label, KiB (null where unknown). */
  rssAfterRunKiB: Record<string, number | null>;
  results: ScenarioResult[];
  /** Our server's memory after the run, from its /metrics. */
  memory: MemoryBreakdown;
  /** `CACHE_BYTES` our server ran with (each worker's). */
  cacheBytes: number;
}

/** The baseline's column name: it is an in-repo re-implementation, never "the reference". */
export const BASELINE_LABEL = 'in-repo baseline';

/** The servers of the main phase besides ours: the references, then the baseline when asked for. */
async function otherServers(
  run: BenchRun,
): Promise<{ target: Target; kind: OtherResult['kind'] }[]> {
  const out: { target: Target; kind: OtherResult['kind'] }[] = [];
  for (const spec of run.options.references) {
    const child = new ExternalServer(spec);
    const res = await fetch(`${child.baseUrl}/configs`).catch(
      (error: unknown) => {
        throw new Error(
          `reference ${spec.name} (${spec.url}) does not answer: ${String(error)}`,
        );
      },
    );
    const list = (await res.json()) as unknown;
    if (Array.isArray(list) && list.length > 0) {
      run.progress(
        `  WARNING: reference ${spec.name} already holds ${list.length} configs; searches then differ from ours (start it on a fresh database)`,
      );
    }
    out.push({ target: { label: spec.name, child }, kind: 'reference' });
  }
  if (run.options.baseline) {
    out.push({
      target: { label: BASELINE_LABEL, child: await run.startBaseline() },
      kind: 'baseline',
    });
  }
  return out;
}

/**
 * The main phase: every scenario on the configured dataset; ours, each reference (or the in-repo
 * baseline) and the ceiling on the distinct requests, then ours on one request repeated (hot cache).
 */
export async function runMain(run: BenchRun): Promise<MainResults> {
  const { configs, links } = run.options;
  run.progress(`phase main: ${configs} configs × ${links} links`);
  const { workers } = run.options;
  // Given explicitly (the server's default), so that the memory bound knows it whatever the shell says.
  const cacheBytes = DEFAULT_CACHE_BYTES;
  const ours: Target = {
    label: 'ours',
    child: await run.startOurs({
      CACHE_BYTES: String(cacheBytes),
      ...(workers > 1 ? { WORKERS: String(workers) } : {}),
    }),
  };
  if (workers > 1) {
    await allWorkersAnswer(ours.child.baseUrl, workers);
    run.progress(`  ours: ${workers} workers answer`);
  }
  const others = await otherServers(run);
  const loaded: Record<string, LoadSummary> = {
    ours: await run.load(ours, configs),
  };
  for (const { target } of others) {
    loaded[target.label] = await run.load(target, configs);
  }
  const scenarios = run.select(buildScenarios({ configs, links }));
  const { captures, agreement } = await captureScenarios(run, scenarios, {
    ours,
    others: others.map((o) => o.target),
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
    await setUp(ours, scenario);
    const oursResult = await run.measure(ours, scenario.sequence, { title });
    const otherResults: OtherResult[] = [];
    for (const { target, kind } of others) {
      await setUp(target, scenario);
      const sequence = scenario.othersSequence ?? scenario.sequence;
      otherResults.push({
        label: target.label,
        kind,
        result: await run.measure(target, sequence, { title }),
      });
    }
    const ceilingResult =
      ceiling === null
        ? null
        : await run.measure(
            ceiling,
            ceilingSequence(scenario, answers.length),
            { title, warmup: false, countRepeats: false },
          );
    const hot =
      run.options.hot && scenario.read && scenario.sequence.size > 1
        ? await run.measure(ours, repeated(scenario.sequence.at(0)), {
            title: `${title} (hot cache)`,
            warmup: false,
            countRepeats: false,
          })
        : null;
    const bytes = answers.reduce(
      (sum, c) => sum + Buffer.from(c.body, 'base64').length,
      0,
    );
    results.push({
      id: scenario.id,
      title,
      mix: scenario.mix,
      targets: scenario.targets,
      ours: oursResult,
      others: otherResults,
      ceiling: ceilingResult,
      // One request repeated is what the distinct run is for `GET /configs`.
      hot: scenario.sequence.size > 1 ? hot : oursResult,
      responseBytes: answers.length === 0 ? 0 : bytes / answers.length,
      agreement: agreement[i] ?? {},
    });
  }
  const memory = await memoryBreakdown(ours.child.baseUrl);
  const rssAfterRunKiB: Record<string, number | null> = {
    ours: await ours.child.rssKiB(),
  };
  for (const { target } of others) {
    rssAfterRunKiB[target.label] = await target.child.rssKiB();
  }
  await ours.child.stop();
  for (const { target } of others) await target.child.stop();
  await ceiling?.child.stop();
  return { loaded, rssAfterRunKiB, results, memory, cacheBytes };
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
