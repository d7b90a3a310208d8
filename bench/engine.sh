#!/usr/bin/env bash
# engine.sh [RUNS] [SECONDS] -- the engine speed benchmark: `scopa bench`
# (random 2-player deals, default rules, one thread) RUNS times, and the
# median of deals per second; then the instruction count of a fixed
# 20,000-deal run under callgrind, which does not depend on machine load
# (the number to compare across changes).  Uses the release build.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-5}
seconds=${2:-3}
bin=build/scopa
[ -x "$bin" ] || { echo "build first: cmake -S . -B build -G Ninja && ninja -C build" >&2; exit 1; }
for _ in $(seq "$runs"); do
  "$bin" bench --json --seconds "$seconds"
done | python3 -c '
import json, statistics, sys
rows = [json.loads(line) for line in sys.stdin]
d = sorted(r["random_deals_per_second"] for r in rows)
p = sorted(r["plays_per_second"] for r in rows)
print(json.dumps({"runs": len(rows), "median_random_deals_per_second": statistics.median(d),
                  "min": d[0], "max": d[-1], "median_plays_per_second": statistics.median(p)}))'
if command -v valgrind >/dev/null; then
  valgrind --tool=callgrind --callgrind-out-file=/dev/null "$bin" bench --deals 20000 2>&1 |
    awk '/refs:/ {gsub(",", "", $NF); printf "{\"instructions_per_deal\": %.0f}\n", $NF / 20000}'
fi
