/**
 * The event-loop latency phase (`--latency`, issue 17, item 7): how long a cheap request waits while the
 * server parses and prepares large configs. A {@link LatencyProbe} asks `GET /healthz` every 10 ms during
 * three streams, one after the other, on a fresh server: nothing (idle), inline `POST /query` bodies of
 * `--latency-bytes` (one config in `configs`), and rounds of `PUT /configs/latency-big` followed by the
 * first `POST /query` on that new version (the parse and preparation of a stored config on first use).
 * The large requests go one at a time. With `--latency-versus FILE`, a second server (e.g. a build of an
 * earlier commit) is measured the same way, for a before/after in one run.
 */
import type { BenchRun } from './bench-run.js';
import type { ChildServer } from './child-server.js';
import { putBody } from './dataset.js';
import { LatencyProbe, summarizeLatencies } from './latency-probe.js';
import type { LatencyRow } from './report.js';

/** Interval of the probe, ms. */
export const PROBE_INTERVAL_MS = 10;
/** How long the probe runs alone before and after a stream, ms. */
const LEAD_MS = 300;
/** The stored config the stored stream writes and then queries. */
const STORED_NAME = 'latency-big';

/** One large request: its method, path and body. */
interface LargeRequest {
  method: 'PUT' | 'POST';
  path: string;
  body: string;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Sends one large request; its status (0 on a network error) and duration. */
async function send(
  baseUrl: string,
  req: LargeRequest,
): Promise<{ status: number; ms: number }> {
  const started = performance.now();
  try {
    const res = await fetch(`${baseUrl}${req.path}`, {
      method: req.method,
      headers: { 'content-type': 'application/json' },
      body: req.body,
    });
    await res.arrayBuffer();
    return { status: res.status, ms: performance.now() - started };
  } catch {
    return { status: 0, ms: performance.now() - started };
  }
}

/** Probes `child` while `rounds` is sent, round after round, each round's requests in order. */
async function probeDuring(
  child: ChildServer,
  labels: { server: string; phase: string },
  rounds: readonly (readonly LargeRequest[])[],
): Promise<LatencyRow> {
  const probe = new LatencyProbe({
    url: `${child.baseUrl}/healthz`,
    intervalMs: PROBE_INTERVAL_MS,
  });
  const statuses: Record<string, number> = {};
  const durations: number[] = [];
  probe.start();
  await sleep(LEAD_MS);
  for (const round of rounds) {
    for (const req of round) {
      const { status, ms } = await send(child.baseUrl, req);
      const key = `${req.method} ${status}`;
      statuses[key] = (statuses[key] ?? 0) + 1;
      durations.push(ms);
    }
  }
  await sleep(LEAD_MS);
  const { latencies, failures } = probe.stop();
  return {
    ...labels,
    statuses,
    requests: summarizeLatencies(durations),
    probe: summarizeLatencies(latencies),
    probeFailures: failures,
  };
}

/** The three streams on one fresh server. */
async function measureServer(
  run: BenchRun,
  server: { label: string; main: string | undefined },
  config: string,
): Promise<LatencyRow[]> {
  const { latencyRounds: rounds } = run.options;
  const child = await run.startOurs({}, server.label, server.main);
  try {
    const labels = (phase: string) => ({ server: server.label, phase });
    const query = (body: string): LargeRequest => ({
      method: 'POST',
      path: '/query',
      body,
    });
    const inline = query(`{"configs":[${config}],"expression":"l1 | l2"}`);
    const put: LargeRequest = {
      method: 'PUT',
      path: `/configs/${STORED_NAME}`,
      body: config,
    };
    const firstUse = query(
      `{"configName":"${STORED_NAME}","expression":"l1 | l2"}`,
    );
    const repeat = <T>(item: T) => Array.from({ length: rounds }, () => item);
    run.progress(`phase latency · ${server.label}: idle`);
    const idle = await probeDuring(child, labels('idle'), []);
    run.progress(`phase latency · ${server.label}: inline /query × ${rounds}`);
    const inlineRow = await probeDuring(
      child,
      labels('inline POST /query'),
      repeat([inline]),
    );
    run.progress(
      `phase latency · ${server.label}: PUT + first /query × ${rounds}`,
    );
    const storedRow = await probeDuring(
      child,
      labels('PUT, then first POST /query'),
      repeat([put, firstUse]),
    );
    return [idle, inlineRow, storedRow];
  } finally {
    await child.stop();
  }
}

/** Runs the latency phase on our server (and on `--latency-versus` when given). */
export async function runLatency(run: BenchRun): Promise<LatencyRow[]> {
  const { latencyBytes, latencyVersus } = run.options;
  const config = putBody(latencyBytes);
  const links = (config.match(/"url":/g) ?? []).length;
  run.progress(
    `phase latency: configs of ${(config.length / 1024 ** 2).toFixed(1)} MiB (${links} links), probe every ${PROBE_INTERVAL_MS} ms`,
  );
  const rows = await measureServer(
    run,
    { label: 'ours', main: undefined },
    config,
  );
  if (latencyVersus !== null) {
    rows.push(
      ...(await measureServer(
        run,
        { label: 'versus', main: latencyVersus },
        config,
      )),
    );
  }
  return rows;
}
