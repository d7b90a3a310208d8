#!/usr/bin/env bash
# retrain.sh -- rebuilds the learned opponent model from nothing: games of
# each player type against dealset (oppmodel_data gen, node budgets, so
# the lines depend only on the seeds), then the fit (train.py), which
# rewrites src/ai/oppmodel_weights.h.  What shipped (docs/research.md):
#
#   tools/oppmodel/retrain.sh build 500 150
#
# Types: greedy, rules, chitarrella (each recorded against dealset) and
# search (dealset against itself, both seats recorded).
#
# The last deal's table of docs/research.md ("The last deal against the
# model"; not shipped as weights) is the same with `--deals 6-6` added to
# GEN, 1000 and 300 rounds, and train.py's --out set to a scratch file.
set -euo pipefail
BUILD=${1:-build}
ROUNDS=${2:-500}
HELDOUT=${3:-150}
OUT=${OUT:-.oppmodel-data}
GEN="$BUILD/tools/oppmodel/oppmodel_data gen --nodes 250000"
mkdir -p "$OUT"
t=0
for bot in greedy rules chitarrella; do
  $GEN --a "$bot" --b dealset --record a --type $t --rounds "$ROUNDS" --seed 1 >"$OUT/$bot.train"
  $GEN --a "$bot" --b dealset --record a --type $t --rounds "$HELDOUT" --seed 2 >"$OUT/$bot.test"
  t=$((t + 1))
done
$GEN --a dealset --b dealset --record both --type 3 --rounds $((ROUNDS / 2)) --seed 1 >"$OUT/search.train"
$GEN --a dealset --b dealset --record both --type 3 --rounds $((HELDOUT / 2)) --seed 2 >"$OUT/search.test"
/usr/bin/python3 "$(dirname "$0")/train.py" --out src/ai/oppmodel_weights.h \
  --train greedy="$OUT/greedy.train" rules="$OUT/rules.train" \
  chitarrella="$OUT/chitarrella.train" search="$OUT/search.train" \
  --test greedy="$OUT/greedy.test" rules="$OUT/rules.test" \
  chitarrella="$OUT/chitarrella.test" search="$OUT/search.test" \
  --command "tools/oppmodel/retrain.sh $BUILD $ROUNDS $HELDOUT"
