#!/usr/bin/env bash
# Make the Duel of the Forces sample games with the project's own command: random bots play
# 2-, 3- and 4-player games of each edition to the end.  Usage: bash replays/make_duel_of_the_forces.sh
set -euo pipefail
cd "$(dirname "$0")"
names=(ann ben cat dan)
for edition in ravensburger-2015 parlett-english parlett-original; do
  for n in 2 3 4; do
    out="duel-of-the-forces-$edition-${n}p.msgpack"
    rm -f "$out"
    args=()
    for ((i = 0; i < n; i++)); do args+=(--player "${names[i]}" --bot "${names[i]}"); done
    boardstate play duel-of-the-forces "${args[@]}" --option "edition=$edition" \
      --seed "sample-$edition-$n" -o "$out" > /dev/null
    boardstate verify "$out"
  done
done
