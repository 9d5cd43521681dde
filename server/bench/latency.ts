/**
 * The event-loop latency phase (`--latency`, issue 17, item 7): how long a cheap request waits while the
 * server parses and prepares large configs. A {@link LatencyProbe} asks `GET /healthz` every 10 ms during
 * three streams, one after the other, on a fresh server: nothing (idle), inline `POST /query` bodies of
 * `--latency-bytes` (one config in `configs`), and rounds of `PUT /configs/latency-big` followed by the
 * first `POST /query` on that new version (the parse and preparation of a stored config on first use).
 * The large requests go one at a time; each row of the table holds the probes sent while a request of
 * its kind was in flight. With `--latency-versus FILE`, a second server (e.g. a build of an
 * earlier commit) is measured the same way, for a before/after in one run.
 */
import type { BenchRun } from './run/bench-run.js';
import type { ChildServer } from './child-server.js';
import { putBody } from './dataset.js';
import {
  LatencyProbe,
  latenciesDuring,
  summarizeLatencies,
} from './latency-probe.js';
import type { LatencyRow } from './report.js';

/** Interval of the probe, ms. */
export const PROBE_INTERVAL_MS = 10;
/** How long the probe runs alone before and after a stream, ms. */
const LEAD_MS = 300;
/** The stored config the stored stream writes and then queries. */
const STORED_NAME = 'latency-big';

/** One large request: what the table calls it, its method, path and body. */
interface LargeRequest {
  kind: string;
  method: 'PUT' | 'POST';
  path: string;
  body: string;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Sends one large request; its status (0 on a network error). */
async function send(baseUrl: string, req: LargeRequest): Promise<number> {
  try {
    const res = await fetch(`${baseUrl}${req.path}`, {
      method: req.method,
      headers: { 'content-type': 'application/json' },
      body: req.body,
    });
    await res.arrayBuffer();
    return res.status;
  } catch {
    return 0;
  }
}

/** What was seen of one kind of large request: answers, windows in flight (probe clock), durations. */
interface KindLog {
  statuses: Record<string, number>;
  windows: [number, number][];
  durations: number[];
}

/**
 * Probes `child` while `rounds` is sent, round after round, each round's requests in order; one row per
 * kind of request, of the probes sent while a request of that kind was in flight (with no rounds, one
 * `idle` row of every probe).
 */
async function probeDuring(
  child: ChildServer,
  server: string,
  rounds: readonly (readonly LargeRequest[])[],
): Promise<LatencyRow[]> {
  const probe = new LatencyProbe({
    url: `${child.baseUrl}/healthz`,
    intervalMs: PROBE_INTERVAL_MS,
  });
  const kinds = new Map<string, KindLog>();
  probe.start();
  await sleep(LEAD_MS);
  for (const round of rounds) {
    for (const req of round) {
      const started = probe.now();
      const status = await send(child.baseUrl, req);
      const ended = probe.now();
      const log = kinds.get(req.kind) ?? {
        statuses: {},
        windows: [],
        durations: [],
      };
      kinds.set(req.kind, log);
      const key = `${req.method} ${status}`;
      log.statuses[key] = (log.statuses[key] ?? 0) + 1;
      log.windows.push([started, ended]);
      log.durations.push(ended - started);
    }
  }
  await sleep(LEAD_MS);
  const { samples, failures } = probe.stop();
  if (kinds.size === 0) {
    return [
      {
        server,
        phase: 'idle',
        statuses: {},
        requests: summarizeLatencies([]),
        probe: summarizeLatencies(samples.map((s) => s.ms)),
        probeFailures: failures,
      },
    ];
  }
  return [...kinds].map(([kind, log]) => ({
    server,
    phase: kind,
    statuses: log.statuses,
    requests: summarizeLatencies(log.durations),
    probe: summarizeLatencies(latenciesDuring(samples, log.windows)),
    probeFailures: failures,
  }));
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
    const query = (kind: string, body: string): LargeRequest => ({
      kind,
      method: 'POST',
      path: '/query',
      body,
    });
    const inline = query(
      'inline POST /query',
      `{"configs":[${config}],"expression":"l1 | l2"}`,
    );
    const put: LargeRequest = {
      kind: 'PUT /configs/:name',
      method: 'PUT',
      path: `/configs/${STORED_NAME}`,
      body: config,
    };
    const firstUse = query(
      'first POST /query after the PUT',
      `{"configName":"${STORED_NAME}","expression":"l1 | l2"}`,
    );
    const repeat = <T>(item: T) => Array.from({ length: rounds }, () => item);
    run.progress(`phase latency · ${server.label}: idle`);
    const idle = await probeDuring(child, server.label, []);
    run.progress(`phase latency · ${server.label}: inline /query × ${rounds}`);
    const inlineRows = await probeDuring(child, server.label, repeat([inline]));
    run.progress(
      `phase latency · ${server.label}: PUT + first /query × ${rounds}`,
    );
    const storedRows = await probeDuring(
      child,
      server.label,
      repeat([put, firstUse]),
    );
    return [...idle, ...inlineRows, ...storedRows];
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
