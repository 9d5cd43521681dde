#!/usr/bin/env bash
# The one full benchmark run (docs/benchmarks.md, "The full run"): the three reference servers of
# ../shared/reference started fresh, then the engine benchmark, the HTTP benchmark with both request mixes
# beside them, the scale table (10, 50, 200 and 10,000 configs) and the latency probe, then the history
# benchmark. The report goes to stdout, progress to stderr; extra flags go to the HTTP benchmark
# (e.g. --json full.json). The references are stopped at the end, whatever happens.
#   BENCH_PORT  first of the three ports the references listen on (default 4791)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
start=""
for dir in "$root/../shared/reference" "$root/../../shared/reference"; do
  if [ -x "$dir/start.sh" ]; then start="$dir/start.sh"; break; fi
done
if [ -z "$start" ]; then
  echo "no shared/reference/start.sh beside this checkout (see docs/benchmarks.md)" >&2
  exit 1
fi
port=${BENCH_PORT:-4791}
pids=()
stop() { for pid in "${pids[@]}"; do kill -TERM -- "-$pid" 2>/dev/null || true; done; }
trap stop EXIT
refs=()
for name in hono express bun; do
  pid=$("$start" "$name" "$port" | tail -1)
  pids+=("$pid")
  refs+=(--reference "$name-ref=http://127.0.0.1:$port@$pid")
  port=$((port + 1))
done
cd "$root"
npx tsc -b
npm run --silent bench:engine
node --import tsx server/bench/http.bench.ts "${refs[@]}" --scale --latency "$@"
npm run --silent bench:history
