/**
 * The production features' cost (`--features`, issue #13): the distinct-request reads on three servers
 * of ours: the defaults, the defaults with `COMPRESSION=off`, and `METRICS=off COMPRESSION=off
 * ACCESS_LOG=off`; all sent `Accept-Encoding: gzip, br` as browsers do (so the defaults really compress)
 * and all logging at the default level. Compression is CPU work of its own, weighed against the bytes it
 * saves; the middle server tells its cost apart from that of metrics, request ids and the access log.
 * The order of the servers rotates per scenario so none always runs first. Then the
 * bytes on the wire of `GET /configs/:name`, with and without `Accept-Encoding`, counted before any
 * decoding.
 */
import { request } from 'node:http';
import type { BenchRun, Target } from './run/bench-run.js';
import type { FeatureRow, WireRow } from './report.js';
import { configName } from './dataset.js';
import { buildScenarios } from './scenarios.js';

/** What the features phase measured. */
export interface FeatureResults {
  rows: FeatureRow[];
  wire: WireRow[];
}

/** The settings that turn the features off (unknown settings are ignored by servers that lack them). */
export const FEATURES_OFF = {
  METRICS: 'off',
  COMPRESSION: 'off',
  ACCESS_LOG: 'off',
} as const;

/** What browsers send. */
const ACCEPT_ENCODING = { 'accept-encoding': 'gzip, br' } as const;

/**
 * One GET, counting the body bytes as they arrive on the socket (not decoded) and reading the
 * `Content-Encoding` of the answer.
 */
export function wireBytes(
  url: string,
  headers: Record<string, string>,
): Promise<{ bytes: number; encoding: string; status: number }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers }, (res) => {
      let bytes = 0;
      res.on('data', (chunk: Buffer) => (bytes += chunk.length));
      res.on('end', () =>
        resolve({
          bytes,
          encoding: res.headers['content-encoding'] ?? 'identity',
          status: res.statusCode ?? 0,
        }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

/** Bytes of every dataset config's `GET /configs/:name`, with and without `Accept-Encoding`. */
async function measureWire(
  target: Target,
  configs: number,
): Promise<WireRow[]> {
  const rows: WireRow[] = [];
  for (let i = 0; i < configs; i++) {
    const name = configName(i);
    const url = `${target.child.baseUrl}/configs/${encodeURIComponent(name)}`;
    const plain = await wireBytes(url, {});
    const encoded = await wireBytes(url, ACCEPT_ENCODING);
    if (plain.status !== 200 || encoded.status !== 200) {
      throw new Error(
        `GET /configs/${name} answered ${plain.status}/${encoded.status}`,
      );
    }
    rows.push({
      name,
      identityBytes: plain.bytes,
      encodedBytes: encoded.bytes,
      encoding: encoded.encoding,
    });
  }
  return rows;
}

/** Runs the features comparison on two fresh servers of ours. */
export async function runFeatures(run: BenchRun): Promise<FeatureResults> {
  const { options, progress } = run;
  const { configs, links } = options;
  progress(
    `phase features: ${configs} configs × ${links} links, defaults vs ${Object.entries(
      FEATURES_OFF,
    )
      .map(([k, v]) => `${k}=${v}`)
      .join(' ')}`,
  );
  // Both at the default log level, so the access log is written where it is on.
  const defaults: Target = {
    label: 'defaults',
    child: await run.startOurs({ LOG_LEVEL: 'info' }, 'defaults'),
  };
  const uncompressed: Target = {
    label: 'compression off',
    child: await run.startOurs(
      { LOG_LEVEL: 'info', COMPRESSION: 'off' },
      'compression off',
    ),
  };
  const off: Target = {
    label: 'features off',
    child: await run.startOurs(
      { LOG_LEVEL: 'info', ...FEATURES_OFF },
      'features off',
    ),
  };
  try {
    await run.load(defaults, configs);
    await run.load(uncompressed, configs);
    await run.load(off, configs);
    const scenarios = run
      .select(buildScenarios({ configs, links }))
      .filter((s) => s.read);
    const rows: FeatureRow[] = [];
    for (const [i, scenario] of scenarios.entries()) {
      progress(
        `phase features · scenario ${i + 1}/${scenarios.length}: ${scenario.title}`,
      );
      const measureOn = (t: Target) =>
        run.measure(t, scenario.sequence, {
          title: scenario.title,
          headers: ACCEPT_ENCODING,
        });
      const targets = [defaults, uncompressed, off];
      const results = new Map<Target, Awaited<ReturnType<typeof measureOn>>>();
      for (let k = 0; k < targets.length; k++) {
        const target = targets[(i + k) % targets.length] as Target;
        results.set(target, await measureOn(target));
      }
      const resultOf = (t: Target) => {
        const result = results.get(t);
        if (result === undefined) throw new Error(`${t.label} not measured`);
        return result;
      };
      rows.push({
        id: scenario.id,
        title: scenario.title,
        defaults: resultOf(defaults),
        uncompressed: resultOf(uncompressed),
        off: resultOf(off),
      });
    }
    progress('phase features: bytes on the wire of GET /configs/:name');
    const wire = await measureWire(defaults, configs);
    return { rows, wire };
  } finally {
    await defaults.child.stop();
    await uncompressed.child.stop();
    await off.child.stop();
  }
}
