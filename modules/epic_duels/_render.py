"""The table as text and as data, as a seat sees it (placeholder: replaced by the drawings)."""

from __future__ import annotations

from ._state import DIE_NAMES, PHASE_NAMES, EpicState


def render(s: EpicState, seat) -> str:
    rs = s.roster
    lines = [f"{rs.board.title}: {PHASE_NAMES[s.phase]}"]
    for i, c in enumerate(rs.chars):
        lines.append(f"  {c.id}: {c.hp - s.damage[i]}/{c.hp} at {s.square[i]}")
    if s.die >= 0:
        lines.append(f"die: {DIE_NAMES[s.die]}, actions left {s.actions}")
    return "\n".join(lines)


def to_json(s: EpicState, seat) -> dict:
    return {"phase": PHASE_NAMES[s.phase]}
