#!/usr/bin/env bash
# Make the Jedi Duel sample games (2, 4 and 6 players) with the project's own command line.
#
# Reproducible: fixed seeds and player names, and a fixed, simple policy that picks each move
# from the commands `boardstate legal` lists: the first kind of command available in this order
# (Force Lightning; a Force Defence with a fumble; a Force Defence; take the attack or a Club
# defence; an attack, a Force power or a discard; anything else), and among those the one a
# counter-based index points at.
# Needs jq.  Usage: bash replays/make_jedi_duel.sh [BOARDSTATE]   (default: boardstate on PATH)
set -euo pipefail

cd "$(dirname "$0")/.."
BS=${1:-boardstate}
PREFERENCE='^lightning ;^force-defend .* fumble ;^force-defend ;^(take$|defend );^(attack|sense|heal|push|discard) ;.'

pick() {  # pick STEP SALT: choose one command from the JSON list on stdin
    jq -r --arg prefs "$PREFERENCE" --argjson step "$1" --argjson salt "$2" '
        .commands as $all
        | ([$prefs | split(";")[] as $p | [$all[] | select(test($p))] | select(length > 0)]
           | first) as $best
        | $best[(($step * 40503 + $salt) % ($best | length))]'
}

make_game() {  # make_game FILE SEED SALT PLAYER...
    local file=$1 seed=$2 salt=$3
    shift 3
    local args=()
    for p in "$@"; do args+=(--player "$p"); done
    rm -f "$file"
    "$BS" new jedi-duel "${args[@]}" --seed "$seed" -o "$file" >/dev/null
    local step=0
    while :; do
        local who
        who=$("$BS" show "$file" --json | jq -r '.engine.to_act[0] // empty')
        [ -z "$who" ] && break
        local command
        command=$("$BS" legal "$file" --as "$who" --json | pick "$step" "$salt")
        local said  # (the move file is not kept; what the move did is said only if it fails)
        if ! said=$("$BS" move "$file" --as "$who" "$command" -o - 2>&1 >/dev/null); then
            echo "$said" >&2
            exit 1
        fi
        step=$((step + 1))
    done
    "$BS" verify "$file"
}

make_game replays/jedi-duel-2p.msgpack jedi-duel-sample-2 7 luke vader
make_game replays/jedi-duel-4p.msgpack jedi-duel-sample-4 11 luke vader obiwan maul
make_game replays/jedi-duel-6p.msgpack jedi-duel-sample-6 13 luke vader obiwan maul yoda dooku
