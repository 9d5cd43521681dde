/**
 * Published reads (`--published`, issue #30): one dataset config (about 118 KB of JSON at 500 links),
 * published, read again and again from our server as `GET /published/configs/:name`, once for the whole
 * body (200) and once revalidated with its ETag (`If-None-Match`: 304), beside our own
 * `GET /configs/:name` and each reference's `GET /configs/:name` of the same config, in the same run.
 * One request repeated on purpose: a published menu is few URLs read by many visitors. No
 * `Accept-Encoding`, as in the main table (the bytes as stored). The figures: req/s and the server's CPU
 * µs per request.
 */
import { configName } from './dataset.js';
import { ExternalServer } from './reference-server.js';
import { measure } from './load.js';
import type { LoadResult } from './load.js';
import type { BenchRun, Target } from './run/bench-run.js';
import { settle } from './run/bench-servers.js';
import { repeated } from './sequences/request-sequences.js';

/** One line of the published-reads table. */
export interface PublishedRow {
  readonly server: string;
  readonly request: string;
  /** Bytes of one answer's body. */
  readonly bytes: number;
  readonly result: LoadResult;
}

/** The goals of issue #30, CPU µs per request. */
export const PUBLISHED_GOALS = { full: 110, notModified: 40 } as const;

/** Measures one request repeated on `target`, sent with `headers`. */
async function measureOne(
  run: BenchRun,
  target: Target,
  { path, headers = {} }: { path: string; headers?: Record<string, string> },
): Promise<LoadResult> {
  const result = await measure(
    target.child.baseUrl,
    repeated({ method: 'GET', path }),
    {
      settings: run.settings,
      headers,
      cpuMicros: () => target.child.cpuMicros(),
      onRound: (round) =>
        run.progress(
          `  ${target.label} · ${path}${headers['if-none-match'] === undefined ? '' : ' (If-None-Match)'} · ${round === 0 ? 'warm-up' : `round ${round}`}`,
        ),
    },
  );
  await settle(target);
  return { ...result, repeats: null };
}

/** The published-reads phase. */
export async function runPublished(run: BenchRun): Promise<PublishedRow[]> {
  const name = configName(0);
  const encoded = encodeURIComponent(name);
  run.progress(`phase published: ${name} (${run.options.links} links)`);
  const ours: Target = { label: 'ours', child: await run.startOurs() };
  try {
    await run.load(ours, 1);
    const published = await fetch(
      `${ours.child.baseUrl}/configs/${encoded}/publish`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{}',
      },
    );
    if (published.status !== 200) {
      throw new Error(`publish answered ${published.status}`);
    }
    const path = `/published/configs/${encoded}`;
    const first = await fetch(`${ours.child.baseUrl}${path}`);
    const bytes = (await first.arrayBuffer()).byteLength;
    const etag = first.headers.get('etag');
    if (first.status !== 200 || etag === null) {
      throw new Error(`GET ${path} answered ${first.status}, ETag ${etag}`);
    }
    const rows: PublishedRow[] = [
      {
        server: 'ours',
        request: `GET ${path} → 200`,
        bytes,
        result: await measureOne(run, ours, { path }),
      },
      {
        server: 'ours',
        request: `GET ${path} + If-None-Match → 304`,
        bytes: 0,
        result: await measureOne(run, ours, {
          path,
          headers: { 'if-none-match': etag },
        }),
      },
      {
        server: 'ours',
        request: `GET /configs/${encoded} → 200 (the draft)`,
        bytes,
        result: await measureOne(run, ours, { path: `/configs/${encoded}` }),
      },
    ];
    for (const spec of run.options.references) {
      const reference: Target = {
        label: spec.name,
        child: new ExternalServer(spec),
      };
      await run.load(reference, 1);
      const got = await fetch(`${reference.child.baseUrl}/configs/${encoded}`);
      rows.push({
        server: spec.name,
        request: `GET /configs/${encoded} → ${got.status}`,
        bytes: (await got.arrayBuffer()).byteLength,
        result: await measureOne(run, reference, {
          path: `/configs/${encoded}`,
        }),
      });
    }
    return rows;
  } finally {
    await ours.child.stop();
  }
}

const micros = (value: number | null): string =>
  value === null ? '—' : value.toFixed(0);

/** The table of the phase (Markdown). */
export function publishedTable(rows: readonly PublishedRow[]): string {
  const lines = [
    '| server | request | body bytes | req/s | CPU µs/request | p50 ms | p99 ms | answers |',
    '| --- | --- | ---: | ---: | ---: | ---: | ---: | --- |',
  ];
  for (const { server, request, bytes, result } of rows) {
    const statuses = Object.entries(result.statusCodes)
      .map(([code, count]) => `${count} × ${code}`)
      .join(', ');
    lines.push(
      `| ${server} | \`${request}\` | ${bytes} | ${result.rps.toFixed(0)} | ${micros(result.cpuMicrosPerRequest)} | ${result.p50} | ${result.p99} | ${statuses} |`,
    );
  }
  lines.push(
    '',
    `Goals (issue #30): ≤ ${PUBLISHED_GOALS.full} µs per 200, ≤ ${PUBLISHED_GOALS.notModified} µs per 304. "answers": the median round's status codes.`,
  );
  return lines.join('\n');
}
