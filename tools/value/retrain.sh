#!/usr/bin/env bash
# retrain.sh -- rebuilds the learned boundary value from nothing: the
# training and held-out boundaries (value_data gen, exact solves),
# then the fit (train.py), which rewrites src/ai/value_weights.h and
# tests/data/value_cases.txt.  What shipped (docs/research.md):
#
#   tools/value/retrain.sh build 39228 1500 4
#
# about 25 minutes of one core for the data and 10 for the fit.  The data
# split into SHARDS processes (`--shard I/N`: round r belongs to shard
# r % N, its seed depends on r only), so the lines are the same whatever
# the shard count, only their order differs; spread them over machines
# the same way (one `gen --shard I/N` each) and concatenate.
set -euo pipefail
BUILD=${1:-build}
ROUNDS=${2:-39228}
HELDOUT=${3:-1500}
SHARDS=${4:-1}
OUT=${OUT:-.value-data}
GEN="$BUILD/tools/value/value_data gen"
mkdir -p "$OUT"
for ((i = 0; i < SHARDS; i++)); do
  $GEN --rounds "$ROUNDS" --seed 1 --orders 4 --shard "$i/$SHARDS" >"$OUT/train.$i" &
done
$GEN --rounds "$HELDOUT" --seed 2 --orders 16 >"$OUT/heldout.txt" &
wait
# Whole rounds stay together: sort by round is not needed, the fit splits
# training from validation by position after a stable merge.
cat "$OUT"/train.* >"$OUT/train.txt"
/usr/bin/python3 "$(dirname "$0")/train.py" --boundary "$BUILD/tools/value/value_data" \
  --train "$OUT/train.txt" --test "$OUT/heldout.txt" --epochs 10 --hidden 32
