#!/usr/bin/env bash
# Make the Star Wars Epic Duels sample games with the project's own command: random bots play
# each game to the end: the duel on every battle scene, then every variant of the rulebook's
# Game Variations.  Usage: bash replays/make_epic_duels.sh
set -euo pipefail
cd "$(dirname "$0")"
names=(ann ben cat dan eve fay)
# name  players  options...
games=(
  "epic-duels-geonosis 2 board=geonosis characters=obi-wan,dooku"
  "epic-duels-kamino 2 board=kamino characters=mace,jango"
  "epic-duels-throne-room 2 board=throne-room characters=luke,emperor"
  "epic-duels-carbon-chamber 2 board=carbon-chamber characters=han,vader"
  "epic-duels-team-4p 4 variant=team characters=luke,vader,yoda,maul"
  "epic-duels-team-6p 6 variant=team board=kamino characters=luke,vader,yoda,maul,han,boba"
  "epic-duels-free-for-all-3p 3 variant=free-for-all board=throne-room characters=luke,yoda,vader"
  "epic-duels-random-draw-5p 5 variant=random-draw board=carbon-chamber"
  "epic-duels-master-2p 2 variant=master characters=obi-wan+yoda,dooku+maul"
  "epic-duels-master-4p 4 variant=master board=kamino"
)
for game in "${games[@]}"; do
  read -r name n rest <<< "$game"
  out="$name.msgpack"
  rm -f "$out"
  args=()
  for ((i = 0; i < n; i++)); do args+=(--player "${names[i]}" --bot "${names[i]}"); done
  for option in $rest; do args+=(--option "$option"); done
  boardstate play epic-duels "${args[@]}" --seed "sample-$name" -o "$out" > /dev/null
  boardstate verify "$out"
done
