#!/bin/sh
# variants.sh -- the strength bar of issue 15: in every preset and with six
# players, greedy against random and best against greedy in `scopa arena`
# over duplicate deals (one core; best on a node budget of --movetime 5,
# so the figures depend on the seed only).  About half an hour in all on a
# loaded 2-core machine.
#   bench/ai/variants.sh [path/to/scopa] [deals] [seed]
SCOPA=${1:-build/scopa}
DEALS=${2:-300}
SEED=${3:-1}
DIR=$(mktemp -d)
echo '{"players": 6, "teams": true}' > "$DIR/six-teams.json"
echo '{"players": 6}' > "$DIR/six-alone.json"
for rules in "--preset scopa" "--preset scopone" "--preset scientifico" \
             "--preset assi" "--preset quindici" "--preset escoba" \
             "--preset trentuno" "--preset perdere" \
             "--rules $DIR/six-teams.json" "--rules $DIR/six-alone.json"; do
  for pair in "greedy random" "best greedy"; do
    set -- $pair
    printf '%s | %s vs %s | ' "$rules" "$1" "$2"
    "$SCOPA" arena --json --seed "$SEED" --a "$1" --b "$2" --deals "$DEALS" \
      --movetime 5 $rules
  done
done
rm -rf "$DIR"
