#!/bin/sh
# strength.sh -- the strength bar of issue 4, measured with `scopa arena`
# on duplicate deals (one core each).  Slow: about an hour in all.
#   bench/ai/strength.sh [path/to/scopa] [seed]
SCOPA=${1:-build/scopa}
SEED=${2:-1}
run() { echo "$*"; "$SCOPA" arena --json --seed "$SEED" "$@"; }
run --a greedy --b random --deals 2000
run --a rules --b greedy --deals 2000
run --a pimc --b greedy --deals 1000
run --a infer --b greedy --deals 1000
run --a infer --b rules --preset scientifico --games 100 --movetime 300
