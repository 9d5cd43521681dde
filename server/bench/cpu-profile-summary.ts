/**
 * Summarises a V8 `.cpuprofile` (as written by `node --cpu-prof`, e.g. through `http.bench.ts --profile`):
 * self and inclusive time per function, and self time per area (a package under node_modules, the
 * workspace's own code, Node internals, GC, idle).
 *
 * ```sh
 * node --import tsx server/bench/cpu-profile-summary.ts <file.cpuprofile> [--top 25]
 * ```
 */
import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}
interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}
interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** Where a frame's code lives: `node_modules/<pkg>`, `server`, `shared`, `node:…`, or a V8 pseudo-frame. */
export function areaOf(frame: CallFrame): string {
  const { url, functionName } = frame;
  if (url === '')
    return functionName.startsWith('(') ? functionName : '(native)';
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg?.[1] !== undefined) return pkg[1];
  const own = /\/(server|shared|web-client)\/(?:dist|src|bench)\//.exec(url);
  if (own?.[1] !== undefined) return `@linkconfig/${own[1]}`;
  if (url.startsWith('node:')) return 'node internals';
  return url;
}

const keyOf = (f: CallFrame) =>
  `${f.functionName || '(anonymous)'} ${f.url.replace(/^.*node_modules\//, '').replace(/^file:\/\/.*\/(server|shared)\//, '$1/')}:${f.lineNumber + 1}`;

/** Self and inclusive microseconds per function key, and self per area. */
export function summarise(profile: CpuProfile) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes)
    for (const c of n.children ?? []) parent.set(c, n.id);
  const self = new Map<string, number>();
  const inclusive = new Map<string, number>();
  const areas = new Map<string, number>();
  let total = 0;
  profile.samples.forEach((id, i) => {
    const dt = profile.timeDeltas[i] ?? 0;
    const node = byId.get(id);
    if (node === undefined) return;
    total += dt;
    const k = keyOf(node.callFrame);
    self.set(k, (self.get(k) ?? 0) + dt);
    const area = areaOf(node.callFrame);
    areas.set(area, (areas.get(area) ?? 0) + dt);
    const seen = new Set<string>();
    for (
      let cur: number | undefined = id;
      cur !== undefined;
      cur = parent.get(cur)
    ) {
      const frame = byId.get(cur)?.callFrame;
      if (frame === undefined) break;
      const key = keyOf(frame);
      if (seen.has(key)) continue;
      seen.add(key);
      inclusive.set(key, (inclusive.get(key) ?? 0) + dt);
    }
  });
  return { total, self, inclusive, areas };
}

function top(map: Map<string, number>, total: number, n: number): string {
  return [...map.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, n)
    .map(([k, v]) => `${((100 * v) / total).toFixed(1).padStart(5)}%  ${k}`)
    .join('\n');
}

const isMain = process.argv[1]?.endsWith('cpu-profile-summary.ts') === true;
if (isMain) {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: { top: { type: 'string', default: '25' } },
  });
  const file = positionals[0];
  if (file === undefined)
    throw new Error(
      'usage: cpu-profile-summary.ts <file.cpuprofile> [--top N]',
    );
  const n = Number(values.top);
  const s = summarise(JSON.parse(await readFile(file, 'utf8')) as CpuProfile);
  const busy = s.total - (s.areas.get('(idle)') ?? 0);
  process.stdout.write(
    [
      `total ${(s.total / 1e6).toFixed(1)} s sampled, ${(busy / 1e6).toFixed(1)} s busy; percentages of busy time`,
      '',
      '## self time by area',
      top(new Map([...s.areas].filter(([k]) => k !== '(idle)')), busy, n),
      '',
      '## self time by function',
      top(
        new Map([...s.self].filter(([k]) => !k.startsWith('(idle)'))),
        busy,
        n,
      ),
      '',
      '## inclusive time by function',
      top(
        new Map(
          [...s.inclusive].filter(
            ([k]) => !k.startsWith('(idle)') && !k.startsWith('(root)'),
          ),
        ),
        busy,
        n,
      ),
      '',
    ].join('\n'),
  );
}
