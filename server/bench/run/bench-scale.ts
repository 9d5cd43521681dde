/**
 * The scale phase: the `--scale` table, the scale scenarios on growing datasets.
 */
import { deletePutNames, firstRequests, setUp } from './bench-captures.js';
import { mib } from './bench-run.js';
import type { BenchRun, LoadSummary, Target } from './bench-run.js';
import { captureFirst } from '../capture.js';
import type { ScaleRow } from '../report.js';
import { buildScenarios } from '../scenarios.js';

/** Results of the scale phase. */
export interface ScaleResults {
  rows: ScaleRow[];
  /** Per scale point: our upload, our RSS after it and after that point's scenarios ran. */
  loads: (LoadSummary & { rssAfterRunKiB: number | null })[];
}

/**
 * The scale phase: the scale scenarios at each point, on fresh servers (ours and the baseline). The
 * requests name only the configs of the smallest point, so every point gets the same requests and only
 * the amount of data around them grows.
 */
export async function runScale(run: BenchRun): Promise<ScaleResults> {
  const points = run.options.scalePoints;
  const { links } = run.options;
  const named = Math.min(...points.map((p) => p.configs));
  const scenarios = run
    .select(buildScenarios({ configs: named, links }))
    .filter((s) => s.scale);
  const servers = run.options.baseline ? ['ours', 'baseline'] : ['ours'];
  const rows: ScaleRow[] = scenarios.flatMap((s) =>
    servers.map((server) => ({
      id: s.id,
      title: s.title,
      server,
      points: [],
    })),
  );
  const loads: ScaleResults['loads'] = [];
  for (const point of points) {
    const { configs } = point;
    const pointLinks = point.links ?? links;
    // The configs the requests name keep the run's links, so every point gets identical requests.
    const tail =
      pointLinks === links ? undefined : { from: named, links: pointLinks };
    run.progress(`phase scale: ${configs} configs × ${pointLinks} links`);
    for (const server of servers) {
      const target: Target = {
        label: `${server}@${configs}`,
        child:
          server === 'ours' ? await run.startOurs() : await run.startBaseline(),
      };
      const loaded = await run.load(target, configs, tail);
      for (const scenario of scenarios) {
        await setUp(target, scenario);
        await captureFirst(target.child.baseUrl, {
          id: scenario.id,
          title: `${scenario.title} on ${target.label}`,
          requests: firstRequests(scenario.sequence, 2),
        });
        if (!scenario.read) await deletePutNames([target]);
      }
      for (const [i, scenario] of scenarios.entries()) {
        run.progress(
          `phase scale ${configs} · scenario ${i + 1}/${scenarios.length}: ${scenario.title}`,
        );
        await setUp(target, scenario);
        const r = await run.measure(target, scenario.sequence, {
          title: scenario.title,
        });
        rows
          .find((row) => row.id === scenario.id && row.server === server)
          ?.points.push({
            configs,
            links: pointLinks,
            rps: r.rps,
            p99: r.p99,
            cpuMicros: r.cpuMicrosPerRequest,
          });
      }
      const rssAfterRunKiB = await target.child.rssKiB();
      run.progress(
        `  ${target.label} RSS after the scenarios: ${mib(rssAfterRunKiB)}`,
      );
      if (server === 'ours') loads.push({ ...loaded, rssAfterRunKiB });
      await target.child.stop();
    }
  }
  return { rows, loads };
}
