"""Orthogonal movement with a step budget, on cell indices and bitmasks.

The rule it encodes (Epic Duels, and many others): a piece steps to an edge
neighbour per point of movement; it may not enter terrain that blocks
movement nor a square holding an enemy; it may pass through friends; it may
not end on any occupied square. Standing still is always allowed.
"""

from __future__ import annotations

Neighbours = tuple[tuple[int, ...], ...]


def shortest_steps(
    neighbours: Neighbours, passable: int, start: int, budget: int, until: int = -1
) -> tuple[dict[int, int], dict[int, int]]:
    """Breadth-first search: steps to every cell within budget, and the parent of each; with
    ``until``, only those found by the time that cell is (its parents are all found by then,
    the same as the whole search's: a path asks no more)."""
    steps = {start: 0}
    parents: dict[int, int] = {}
    frontier = [start]
    for taken in range(1, budget + 1):
        reached = []
        for cell in frontier:
            for nxt in neighbours[cell]:
                if nxt not in steps and passable >> nxt & 1:
                    steps[nxt] = taken
                    parents[nxt] = cell
                    if nxt == until:
                        return steps, parents
                    reached.append(nxt)
        if not reached:
            break
        frontier = reached
    return steps, parents


def reachable_ends(
    neighbours: Neighbours, walkable: int, start: int, budget: int, friends: int, enemies: int
) -> dict[int, int]:
    """Cells the piece may end on, with the fewest steps to each (the start costs 0)."""
    own = ~(1 << start)
    friends &= own
    enemies &= own
    steps, _ = shortest_steps(neighbours, walkable & ~enemies, start, budget)
    occupied = friends | enemies
    return {cell: n for cell, n in steps.items() if not occupied >> cell & 1}


def shortest_path(
    neighbours: Neighbours,
    walkable: int,
    start: int,
    goal: int,
    budget: int,
    friends: int,
    enemies: int,
) -> list[int] | None:
    """One shortest legal move from start to goal (both included), or None."""
    own = ~(1 << start)
    friends &= own
    enemies &= own
    if goal != start and (friends | enemies) >> goal & 1:
        return None
    steps, parents = shortest_steps(neighbours, walkable & ~enemies, start, budget, goal)
    if goal not in steps:
        return None
    path = [goal]
    while path[-1] != start:
        path.append(parents[path[-1]])
    path.reverse()
    return path
