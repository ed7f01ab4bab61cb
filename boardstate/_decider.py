"""A module's rules as the engine uses them: the optional parts filled in, each stated once.

Everything the engine asks of a module goes through ``Decider``: option checking against the
spec, the first state, ``decide`` into a ``Table``, and ``validate`` (by default: "is in
``legal``"; a module's fast ``is_legal`` may answer instead, and ``explain`` says why not).
"""

from __future__ import annotations

import attrs

from ._errors import (
    BoardstateError,
    FutureVersion,
    IllegalCommand,
    OptionError,
    SecretUnavailable,
)
from ._module import OPEN, Choice, Setup
from ._secrets import UNKNOWN, Secret
from ._table import Table

ENGINE_RULE = "boardstate engine"


class NeedsInput(Exception):
    """Raised inside the module's ``decide`` (the rules asked the randomness for what some
    players have not supplied yet) and never out of the engine: ``Decider.run`` catches it
    and returns a ``Decision`` — the events the rules gave so far, and what they wait for.

    ``what`` is ``("links", epoch)``, ``("arrange", owner, index, count)`` or ``("joins",)``.
    """

    def __init__(self, what: tuple) -> None:
        super().__init__(what)
        self.what = what
        self.state = None


@attrs.frozen
class Decision:
    """What the rules gave for a decision that may wait (the peer mode): the events so far and
    the state after them; ``waits``, what they wait for (``("links", epoch)`` or
    ``("arrange", owner, index, items)``: ``_peer``), None once decided; ``unmade``, whether a
    secret another copy made stood in (the referee takes those from the record)."""

    events: tuple
    state: object
    waits: tuple | None = None
    unmade: bool = False


class Decider:
    """The engine's handle on one module's rules (stateless: safe to share)."""

    __slots__ = (
        "module",
        "spec",
        "rules",
        "evolve",
        "legal",
        "to_act",
        "outcome",
        "_choice",
        "_is_legal",
        "_explain",
        "_prepare",
        "_tell",
    )

    def __init__(self, module) -> None:
        self.module = module
        self.spec = module.spec
        rules = self.rules = module.rules
        self.evolve = rules.evolve
        self.legal = rules.legal
        self.to_act = rules.to_act
        self.outcome = rules.outcome
        self._choice = getattr(rules, "choice", None)
        self._is_legal = getattr(rules, "is_legal", None)
        self._explain = getattr(rules, "explain", None)
        self._prepare = getattr(rules, "prepare", None)
        self._tell = getattr(rules, "tell", None)

    # ------------------------------------------------------------------ options and set-up
    def options(self, raw, players) -> dict:
        """Check ``raw`` (``{key: text}``) against the spec; the options the header stores."""
        spec = self.spec
        known = {o.key: o for o in spec.options}
        unknown = sorted(set(raw) - set(known))
        if unknown:
            keys = ", ".join(known) or "none"
            raise OptionError(
                f"{spec.id} has no option {unknown[0]!r} (options: {keys})", code="bad-option"
            )
        checked = {}
        for key, option in known.items():
            value = raw.get(key, option.default)
            if value is None:
                continue
            if not isinstance(value, str):
                raise OptionError(f"option {key}: {value!r} is not text", code="bad-option")
            if option.choices:
                value = value.strip().lower()
                if value not in option.choices:
                    raise OptionError(
                        f"option {key}: {value!r} is not one of {', '.join(option.choices)}",
                        code="bad-option",
                    )
            checked[key] = value
        if self._prepare is not None:
            checked = self._prepare(checked, tuple(players))
        return checked

    def check_revision(self, revision: int, where: str, made_with: str = "") -> None:
        """Refuse a game whose rules revision this installation cannot play exactly."""
        spec = self.spec
        made = f" (made with {spec.id} {made_with})" if made_with else ""
        if revision > spec.revision:
            raise FutureVersion(
                f"{where}: needs {spec.id} rules revision {revision}{made}; the installed "
                f"{spec.id} {spec.version} knows revisions {spec.oldest_revision}-{spec.revision}: "
                f"upgrade to {spec.id} {made_with or 'newer'} or later"
            )
        if revision < spec.oldest_revision:
            raise FutureVersion(
                f"{where}: made under {spec.id} rules revision {revision}{made}, which the "
                f"installed {spec.id} {spec.version} no longer plays (it plays revisions "
                f"{spec.oldest_revision}-{spec.revision}): use an older {spec.id} to finish it",
                code="unsupported-revision",
            )

    def initial(self, options, players, revision: int):
        return self.rules.initial(Setup(tuple(players), dict(options), revision))

    def start(self, state, rng) -> tuple:
        """``(events, state after them)`` of the setup (``NeedsInput`` if it waits)."""
        table = Table(state, self.evolve, rng)
        self.rules.start(table)
        return tuple(table.events), table.state

    def run(self, state, moves, rng, openings=None) -> Decision:
        """A decision that may wait for what the players supply (``moves`` None: the setup),
        as a value: what the rules gave so far, and what they wait for."""
        table = Table(state, self.evolve, rng, openings)
        waits = None
        try:
            if moves is None:
                self.rules.start(table)
            else:
                self.rules.decide(table, moves)
        except NeedsInput as exc:
            waits = exc.what
        return Decision(tuple(table.events), table.state, waits, rng.unmade)

    def decide(self, state, moves, rng, openings=None) -> tuple:
        """``(events, state after them)`` for ``moves``."""
        table = Table(state, self.evolve, rng, openings)
        try:
            self.rules.decide(table, moves)
        except SecretUnavailable as exc:  # (with what the rules gave before they needed it)
            raise exc.given(table.events) from None
        return tuple(table.events), table.state

    def check_trust(self, mode: str, options, players, revision: int) -> None:
        """Refuse a game the module cannot play in trust mode ``mode`` (one line, naming a
        mode that serves it)."""
        refuse = getattr(self.rules, "refuse_trust", None)
        if refuse is None:
            return
        why = refuse(Setup(tuple(players), dict(options), revision), mode)
        if why:
            raise OptionError(
                f"{self.spec.name} cannot be played in the {mode} mode: {why}", code="bad-trust"
            )

    # ------------------------------------------------------------------ what may be done
    def choice(self, state) -> Choice:
        return OPEN if self._choice is None else self._choice(state)

    def validate(self, state, seat: int, command) -> None:
        """Raise ``IllegalCommand`` unless ``command`` is one of ``seat``'s legal commands.

        The engine has checked that the game is on and that ``seat`` acts: a module states only
        its own rules, once, in ``legal``.
        """
        if self._is_legal is not None:
            ok = self._is_legal(state, seat, command)
        else:
            ok = command in self.legal(state, seat)
        if ok:
            return
        if self._explain is not None:
            raise self._explain(state, seat, command)
        try:
            shown = repr(self.rules.notation(state, seat, command))
        except MemoryError:
            raise
        except Exception:  # (a command the rules cannot even write down)
            shown = repr(command)
        raise IllegalCommand(
            f"{shown} is not a legal command now", code="illegal", rule=ENGINE_RULE
        )

    # ------------------------------------------------------------------ showing the table
    def render(self, state, seat: int | None) -> str:
        """The table as text, as ``seat`` sees it (the module's ``render``, else its state)."""
        render = getattr(self.rules, "render", None)
        return _drawn(render, state, seat) if render is not None else repr(state)

    def to_json(self, state, seat: int | None) -> dict:
        to_json = getattr(self.rules, "to_json", None)
        return _drawn(to_json, state, seat) if to_json is not None else {"state": repr(state)}

    def report(self, state) -> str | None:
        """One line on what the last decision settled (the module's ``report``, if any)."""
        report = getattr(self.rules, "report", None)
        return _drawn(report, state) if report is not None else None

    def tell(self, state, events, seat: int | None) -> tuple[str, ...]:
        """What ``events`` (one record's, folded from ``state``) did, in the module's words
        (its ``tell``, if any), as ``seat`` may know it (None or -1: a spectator): the module
        sees the state as ``view`` gives it to ``seat`` and the events with every secret
        ``seat`` may not know sealed, so no line can name one."""
        if self._tell is None or not events:
            return ()
        if seat is not None and seat < 0:
            seat = None
        held = tuple(_held_event(event, seat) for event in events)
        return tuple(_drawn(self._tell, self.view(state, seat), held, seat))

    def view(self, state, seat: int | None):
        """What ``seat`` may see of ``state`` (None: a spectator, who holds no secret)."""
        return _drawn(self.rules.view, state, seat)


def _held_event(event, seat: int | None):
    """``event`` as ``seat``'s copy holds it: each secret ``seat`` does not own sealed (a
    spectator owns none); the very event when nothing changes."""
    fields = type(event).__event_fields__(event)
    held = tuple(_held(v, seat) for v in fields)
    if all(a is b for a, b in zip(held, fields)):
        return event
    return type(event)(*held)


def _held(value, seat: int | None):
    kind = type(value)
    if kind is Secret:
        if value.value is UNKNOWN or (seat is not None and value.owned_by(seat)):
            return value
        return value.sealed()
    if kind is tuple:
        held = tuple(_held(v, seat) for v in value)
        return value if all(a is b for a, b in zip(held, value)) else held
    return value


def _drawn(draw, *args):
    """A module's picture or words of a state.  Every state a module made draws; a state that
    will not (folded from a forged file whose chain was made good) is a corrupt file, one line,
    not an internal error."""
    try:
        return draw(*args)
    except (BoardstateError, MemoryError):  # (out of memory is no fault of the file)
        raise
    except Exception as exc:
        from ._errors import CorruptFile

        why = " ".join(f"{type(exc).__name__}: {exc}".split())[:120]
        raise CorruptFile(f"the rules cannot show a state this file folds to ({why})") from None
