#!/bin/sh
# strength.sh -- the strength bars of issues 4 and 13, measured with
# `scopa arena` on duplicate deals and games (one core each).  Slow: some
# three hours in all, most of it the scientifico games of issue 13.
#   bench/ai/strength.sh [path/to/scopa] [seed]
# docs/ai.md ("Measured strength") has the figures and their seeds.
SCOPA=${1:-build/scopa}
SEED=${2:-1}
run() { echo "$*"; "$SCOPA" arena --json --seed "$SEED" "$@"; }
# issue 4
run --a greedy --b random --deals 2000
run --a rules --b greedy --deals 2000
run --a pimc --b greedy --deals 1000
run --a infer --b greedy --deals 1000
run --a infer --b rules --preset scientifico --games 100 --movetime 300
# issue 13: 2-player scopa by the clock at 100 ms, then scientifico games
run --a best --b greedy --deals 1100 --movetime 100 --clock
run --a best --b infer --deals 1100 --movetime 100 --clock
run --a best --b chitarrella --preset scientifico --games 100
run --a best --b rules --preset scientifico --games 100
