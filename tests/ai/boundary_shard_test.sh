#!/usr/bin/env bash
# boundary_shard_test.sh -- value_data gen (tools/value/) keeps its promise
# (the learned value's data, docs/research.md): the shards of a run hold exactly the
# lines of the whole run, every line is a boundary after plays 6..30 with
# disjoint card sets and a label, and `features` writes one record of
# 161 floats per line (6 with --augment).
set -euo pipefail
BIN=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$BIN" gen --rounds 6 --seed 9 --orders 2 | sort >"$tmp/whole"
for i in 0 1 2; do "$BIN" gen --rounds 6 --seed 9 --orders 2 --shard "$i/3"; done |
  sort >"$tmp/shards"
cmp "$tmp/whole" "$tmp/shards"
[ "$(wc -l <"$tmp/whole")" -eq 30 ]
awk '{ if ($1 % 6 || $1 < 6 || $1 > 30 || NF != 7) exit 1 }' "$tmp/whole"
"$BIN" gen --rounds 2 --seed 9 --rollouts 8 | awk 'END { if (NR != 10) exit 1 }'
"$BIN" features <"$tmp/whole" >"$tmp/f"
[ "$(stat -c %s "$tmp/f")" -eq $((30 * 161 * 4)) ]
"$BIN" features --augment <"$tmp/whole" >"$tmp/fa"
[ "$(stat -c %s "$tmp/fa")" -eq $((6 * 30 * 161 * 4)) ]
if "$BIN" gen --shard 3/3 2>/dev/null; then exit 1; fi
echo "boundary shards: ok"
