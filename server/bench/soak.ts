/**
 * The memory soak (`--soak`, issue #9): our server's resident memory while it receives a long stream of
 * distinct requests that no cache can reuse — inline-config `/query` requests of about 1 MB each (half
 * merged after a stored config), then distinct searches of every kind. RSS is sampled from
 * `/proc/<pid>/status` every 200 ms; the report compares the peak and the end with `CACHE_BYTES` (passed
 * explicitly) plus a base measured in the same run (the RSS after start and loading the dataset) plus a
 * fixed allowance for the requests in flight ({@link inFlightAllowanceKiB}), and the peaks of each stream's
 * two halves with each other: memory that is bounded does not rise from one half to the next.
 */
import { LARGE_BODY_PERMITS } from '../src/http/middleware/body-permits.js';
import type { BenchRun, LoadSummary } from './run/bench-run.js';
import { mib } from './run/bench-run.js';
import { requestWorkingBytes, YOUNG_GENERATION_BYTES } from './memory-bound.js';
import { sendAmount } from './load.js';
import type { RoundResult } from './load.js';
import { table } from './report.js';
import { mixSequences } from './sequences/request-sequences.js';
import {
  noMatchSequence,
  regexSequence,
  searchWordSequence,
  tagSequence,
} from './sequences/search-sequences.js';
import { inlineQuerySequence } from './sequences/expression-sequences.js';

/** One RSS sample. */
export interface RssSample {
  /** Milliseconds since the soak's server started. */
  t: number;
  phase: string;
  rssKiB: number;
}

/** A stream of requests sent during the soak. */
export type SoakStream = RoundResult & {
  asked: number;
  completed: number;
  peakKiB: number | null;
  /** Peaks of the stream's first and second halves (in time): bounded memory shows no rise between them. */
  halfPeaksKiB: [number | null, number | null];
  endKiB: number | null;
};

/**
 * What the bound allows beyond the base and `CACHE_BYTES`, fixed whatever the number of requests:
 * V8's young generation, which grows to its two semi-spaces (16 MiB each by default on 64-bit Node 20)
 * under allocation pressure, and the working memory of the large requests answered at once (at most
 * `LARGE_BODY_PERMITS` of the kind the soak sends; the other kind's permits stay unused): the body's bytes
 * and text, its parsed config and its prepared form, weighed with
 * the factors measured for the caches (`server/src/versions/weights.ts`).
 */
export function inFlightAllowanceKiB(bodyBytes: number): number {
  return Math.round(
    (YOUNG_GENERATION_BYTES +
      LARGE_BODY_PERMITS * requestWorkingBytes(bodyBytes)) /
      1024,
  );
}

/** Everything the soak measured. */
export interface SoakResults {
  cacheBytes: number;
  afterStartKiB: number | null;
  loaded: LoadSummary;
  /** The base: RSS after start and loading. */
  baseKiB: number | null;
  /** The fixed allowance for requests in flight ({@link inFlightAllowanceKiB}). */
  allowanceKiB: number;
  queries: SoakStream;
  searches: SoakStream;
  idleKiB: number | null;
  /** How the server ended, when it did not survive the soak. */
  serverEnded: string | null;
  samples: RssSample[];
}

/** Peak RSS of the samples taken during `phase`, or null. */
export function peakOf(
  samples: readonly RssSample[],
  phase: string,
): number | null {
  let peak: number | null = null;
  for (const s of samples) {
    if (s.phase === phase && (peak === null || s.rssKiB > peak))
      peak = s.rssKiB;
  }
  return peak;
}

/** Peaks of the first and second halves (in time) of `phase`. */
export function halfPeaksOf(
  samples: readonly RssSample[],
  phase: string,
): [number | null, number | null] {
  const mine = samples.filter((s) => s.phase === phase);
  const first = mine[0];
  const last = mine.at(-1);
  if (first === undefined || last === undefined) return [null, null];
  const middle = (first.t + last.t) / 2;
  return [
    peakOf(
      mine.filter((s) => s.t <= middle),
      phase,
    ),
    peakOf(
      mine.filter((s) => s.t > middle),
      phase,
    ),
  ];
}

/** Seconds of rest after the last stream, before the final RSS. */
const IDLE_MS = 3000;

/** Runs the soak on a fresh server of ours. */
export async function runSoak(run: BenchRun): Promise<SoakResults> {
  const { options, progress } = run;
  const cacheBytes = options.cacheBytes;
  progress(
    `phase soak: CACHE_BYTES=${cacheBytes}, ${options.soakQueries} inline /query of ~${(options.soakBytes / 1e6).toFixed(1)} MB, ${options.soakSearches} searches`,
  );
  const queriesSequence = inlineQuerySequence({
    bytes: options.soakBytes,
    links: options.links,
    stored: options.configs,
  });
  const searchesSequence = mixSequences([
    searchWordSequence(),
    noMatchSequence(5000),
    tagSequence(),
    regexSequence(5000),
  ]);
  const child = await run.startOurs(
    {
      CACHE_BYTES: String(cacheBytes),
      // Room for the ~1 MB inline configs (and more), whatever the default becomes.
      BODY_LIMIT: String(Math.max(8 * 1024 * 1024, options.soakBytes * 4)),
      // The soak's queries carry inline configs of --soak-bytes: let any size of them through.
      INLINE_BODY_LIMIT: String(
        Math.max(8 * 1024 * 1024, options.soakBytes * 4),
      ),
    },
    'ours (soak)',
  );
  const started = performance.now();
  const samples: RssSample[] = [];
  let phase = 'start';
  const sample = async () => {
    const rss = await child.rssKiB();
    if (rss !== null) {
      samples.push({
        t: Math.round(performance.now() - started),
        phase,
        rssKiB: rss,
      });
    }
  };
  const timer = setInterval(() => void sample(), 200);
  try {
    const afterStartKiB = await child.rssKiB();
    phase = 'load';
    const loaded = await run.load(
      { label: 'ours (soak)', child },
      options.configs,
    );
    const baseKiB = await child.rssKiB();
    const stream = async (
      name: string,
      sequence: typeof queriesSequence,
      shape: { amount: number; connections: number },
    ): Promise<SoakStream> => {
      phase = name;
      progress(`  soak: sending ${shape.amount} ${name}`);
      const r = await sendAmount(child.baseUrl, sequence, {
        ...shape,
        stopIf: () => child.exited,
      });
      await sample();
      const endKiB = child.exited ? null : await child.rssKiB();
      const peakKiB = peakOf(samples, name);
      const halfPeaksKiB = halfPeaksOf(samples, name);
      progress(
        `  soak: ${r.completed} ${name} done, ${r.failures} failed; RSS peak ${mib(peakKiB)}, end ${mib(endKiB)}`,
      );
      return { ...r, asked: shape.amount, peakKiB, halfPeaksKiB, endKiB };
    };
    const queries = await stream('queries', queriesSequence, {
      amount: options.soakQueries,
      connections: 8,
    });
    const searches = child.exited
      ? emptyStream(options.soakSearches)
      : await stream('searches', searchesSequence, {
          amount: options.soakSearches,
          connections: options.connections,
        });
    phase = 'idle';
    await new Promise((r) => setTimeout(r, IDLE_MS));
    const idleKiB = child.exited ? null : await child.rssKiB();
    const serverEnded = child.exited ? child.exitStatus : null;
    if (serverEnded !== null) {
      progress(
        `  soak: the server ended (${serverEnded}):\n${child.output.slice(-2000)}`,
      );
    }
    return {
      cacheBytes,
      afterStartKiB,
      loaded,
      baseKiB,
      allowanceKiB: inFlightAllowanceKiB(options.soakBytes),
      queries,
      searches,
      idleKiB,
      serverEnded,
      samples,
    };
  } finally {
    clearInterval(timer);
    await child.stop();
  }
}

function emptyStream(asked: number): SoakStream {
  return {
    asked,
    completed: 0,
    rps: 0,
    p50: 0,
    p99: 0,
    failures: 0,
    statusCodes: {},
    peakKiB: null,
    halfPeaksKiB: [null, null],
    endKiB: null,
  };
}

/**
 * The soak's report: RSS at each moment, the bound (base + CACHE_BYTES + the in-flight allowance),
 * whether the peak stayed in it, and whether memory rose from the first half of a stream to its second.
 */
export function soakReport(r: SoakResults): string {
  const cacheKiB = r.cacheBytes / 1024;
  const bound =
    r.baseKiB === null ? null : r.baseKiB + cacheKiB + r.allowanceKiB;
  const within = (kib: number | null) =>
    kib === null || bound === null ? '—' : kib <= bound ? 'yes' : 'NO';
  const streamRow = (label: string, s: SoakStream): string[][] => [
    [
      `peak during ${s.completed.toLocaleString('en-US')}/${s.asked.toLocaleString('en-US')} ${label} (${Math.round(s.rps)} req/s, ${s.failures} failed)`,
      mib(s.peakKiB),
      within(s.peakKiB),
    ],
    [
      `peaks of its first / second half`,
      `${mib(s.halfPeaksKiB[0])} / ${mib(s.halfPeaksKiB[1])}`,
      '—',
    ],
    [`end of the ${label}`, mib(s.endKiB), within(s.endKiB)],
  ];
  const peak = Math.max(r.queries.peakKiB ?? 0, r.searches.peakKiB ?? 0);
  const lines = [
    table(
      ['moment', 'RSS', '≤ bound'],
      [
        ['after start', mib(r.afterStartKiB), '—'],
        [
          `after loading ${r.loaded.configs} configs (the base)`,
          mib(r.baseKiB),
          '—',
        ],
        ...streamRow('inline-config /query', r.queries),
        ...streamRow('distinct searches', r.searches),
        [`after ${IDLE_MS / 1000} s idle`, mib(r.idleKiB), within(r.idleKiB)],
      ],
    ),
    '',
    `CACHE_BYTES = ${mib(cacheKiB)}; in-flight allowance = ${mib(r.allowanceKiB)}; ` +
      `bound = base + CACHE_BYTES + allowance = ${mib(bound)}; ` +
      `peak ${mib(peak)} (${bound === null ? '—' : peak <= bound ? 'within' : `OVER by ${mib(peak - bound)}`}).`,
  ];
  if (r.serverEnded !== null) {
    lines.push(`The server ENDED during the soak: ${r.serverEnded}.`);
  }
  return lines.join('\n');
}
