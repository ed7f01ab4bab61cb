#!/usr/bin/env bash
# Make the Star Wars Epic Duels sample games with the project's own command: random bots play a
# two-player game to the end on each battle scene.  Usage: bash replays/make_epic_duels.sh
set -euo pipefail
cd "$(dirname "$0")"
games=(
  "geonosis obi-wan,dooku"
  "kamino mace,jango"
  "throne-room luke,emperor"
  "carbon-chamber han,vader"
)
for game in "${games[@]}"; do
  read -r scene characters <<< "$game"
  out="epic-duels-$scene.msgpack"
  rm -f "$out"
  boardstate play epic-duels --player ann --bot ann --player ben --bot ben \
    --option "board=$scene" --option "characters=$characters" \
    --seed "sample-$scene" -o "$out" > /dev/null
  boardstate verify "$out"
done
