#!/usr/bin/env bash
# check_rollouts.sh -- issue 28's bar on the review's marks, on each set of
# positions and rollouts kept in bench/ai/data (rollout-positions*.jsonl.gz
# with its rollout-truth*.jsonl.gz): `bench_ai_rollout compare --check`
# fails when a set's marks are not what they claim (docs/ai.md "Hints
# checked against play").  Usage: check_rollouts.sh BENCH_AI_ROLLOUT DATA_DIR
set -euo pipefail
bin=$1 data=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
sets=0
for p in "$data"/rollout-positions*.jsonl.gz; do
  t=${p/rollout-positions/rollout-truth}
  [ -f "$t" ] || { echo "check_rollouts: $p has no $t" >&2; exit 1; }
  gunzip -c "$p" > "$tmp/positions.jsonl"
  gunzip -c "$t" > "$tmp/truth.jsonl"
  echo "check_rollouts: $(basename "$p")"
  "$bin" compare --positions "$tmp/positions.jsonl" --truth "$tmp/truth.jsonl" \
    --check | grep -E '^(the moves played|every legal move|issue28)'
  sets=$((sets + 1))
done
[ "$sets" -gt 0 ] || { echo "check_rollouts: no data in $data" >&2; exit 1; }
