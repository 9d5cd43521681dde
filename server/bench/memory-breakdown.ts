/**
 * What our server's memory holds after a run, read from its own `/metrics` (prom-client's process and
 * heap figures, and the caches' byte counts): how much of the RSS is V8's heap (and how much of that is
 * live), memory outside the heap (buffers), and what the caches account for under `CACHE_BYTES`.
 */

/** Our server's memory, MiB-ready bytes; null where `/metrics` did not say. */
export interface MemoryBreakdown {
  rss: number | null;
  heapTotal: number | null;
  heapUsed: number | null;
  external: number | null;
  /** Sum of `linkconfig_cache_bytes` over every cache. */
  caches: number | null;
}

/** Sums every sample of metric `name` in a Prometheus text (null when there is none). */
export function metricSum(text: string, name: string): number | null {
  let sum: number | null = null;
  for (const line of text.split('\n')) {
    if (!line.startsWith(name)) continue;
    const rest = line.slice(name.length);
    if (rest[0] !== ' ' && rest[0] !== '{') continue;
    const value = Number(line.slice(line.lastIndexOf(' ') + 1));
    if (Number.isFinite(value)) sum = (sum ?? 0) + value;
  }
  return sum;
}

/** Reads the breakdown from `baseUrl`'s `/metrics`; all null when it cannot. */
export async function memoryBreakdown(
  baseUrl: string,
): Promise<MemoryBreakdown> {
  let text = '';
  try {
    const res = await fetch(`${baseUrl}/metrics`);
    if (res.ok) text = await res.text();
  } catch {
    // no metrics: nulls
  }
  return {
    rss: metricSum(text, 'process_resident_memory_bytes'),
    heapTotal: metricSum(text, 'nodejs_heap_size_total_bytes'),
    heapUsed: metricSum(text, 'nodejs_heap_size_used_bytes'),
    external: metricSum(text, 'nodejs_external_memory_bytes'),
    caches: metricSum(text, 'linkconfig_cache_bytes'),
  };
}

const mb = (n: number | null) =>
  n === null ? 'n/a' : `${(n / 1024 ** 2).toFixed(0)} MiB`;

/** One line for the report. */
export function describeMemory(m: MemoryBreakdown): string {
  const other =
    m.rss === null || m.heapTotal === null || m.external === null
      ? null
      : m.rss - m.heapTotal - m.external;
  return (
    `Our memory after the run (from its /metrics): RSS ${mb(m.rss)} = V8 heap ${mb(m.heapTotal)} ` +
    `(${mb(m.heapUsed)} live) + outside the heap ${mb(m.external)} + code, stacks and the rest ${mb(other)}; ` +
    `the caches account for ${mb(m.caches)} of CACHE_BYTES.`
  );
}
