"""What the peer and hosted modes share: players join with their keys, a decision may wait for
what the players supply (their shares of the randomness, their face-down piles), and values
shown to some players only travel in letters.  ``PeerTrust`` and ``HostedTrust`` build on it."""

from __future__ import annotations

from .._decider import ENGINE_RULE
from .._errors import IllegalCommand, SecretUnavailable
from .._peer import (
    LINK_BYTES,
    REPLY_EPOCH,
    NeedsInput,
    Supplies,
    arrangement,
    chain_of,
    epoch_key,
    exchange_public,
    link_follows,
    read_letters,
)
from .._records import NO_ACTOR, Kind
from .._rng import Rng
from .._secrets import Secret
from .open import OpenTrust


class Pending:
    """A decision waiting for what the players supply (``_peer``): the record that asked
    (``seq``), what to re-run (``moves``, None for the setup) on which state, and what it has
    been given so far."""

    __slots__ = (
        "seq",
        "moves",
        "base",
        "openings",
        "actor",
        "emitted",
        "supplies",
        "links",
        "need",
        "first",
        "reply",
        "sharer",
    )

    def __init__(self, seq, moves, base, openings, actor) -> None:
        self.seq = seq
        self.moves = moves
        self.base = base
        self.openings = openings
        self.actor = actor
        self.emitted = 0  # events given out so far (in the records from ``seq`` on)
        self.supplies = Supplies()
        self.links: dict[int, bytes] = {}  # the epoch being collected: seat -> link
        self.need: tuple | None = None
        self.first: int | None = None  # whose record made the links due (they deal first)
        self.reply: int | None = None  # the record that names the epoch being collected, when
        # a signature stands for a share in it (the peer mode's protocol 2) ...
        self.sharer: int | None = None  # ... and whose signature it is

    def copy(self) -> Pending:
        out = Pending(self.seq, self.moves, self.base, self.openings, self.actor)
        out.emitted, out.need, out.links = self.emitted, self.need, dict(self.links)
        out.first, out.reply, out.sharer = self.first, self.reply, self.sharer
        out.supplies.keys = list(self.supplies.keys)
        out.supplies.arrangements = {k: list(v) for k, v in self.supplies.arrangements.items()}
        out.supplies.streams = dict(self.supplies.streams)
        return out


class SignedTrust(OpenTrust):
    """Joins, waiting decisions and letters (the peer and hosted modes)."""

    joins = True
    signed = True
    loaded_by_rederiving = True  # what waits for whom is known only by re-running the rules

    def __init__(self) -> None:
        super().__init__()
        self.last_link: dict[int, bytes] = {}
        self.next_pending = None  # (seq, Pending | None): what the record being made leaves
        self._named = (None, b"")  # (header, its game id): hashed once, not once a record

    def game_id(self, game) -> bytes:
        """The game's id (a hash of its header), computed once per header."""
        header, game_id = self._named
        if header is not game.header:
            self._named = header, game_id = game.header, game.header.game_id
        return game_id

    # -------------------------------------------------------------------- waiting
    def start(self, game) -> tuple:
        """The setup's events before they need the players' randomness (the rest waits for
        every join)."""
        return self.advance(game, Pending(0, None, game.state, None, NO_ACTOR))

    def joined(self, game) -> bool:
        return len(self.keys) == len(game.players)

    def waits(self, game) -> bool:
        return self.pending is not None or not self.joined(game)

    def waiting_for(self, game) -> tuple[int, ...]:
        """The seats the game waits for to join, or to supply the waiting decision."""
        due = self.due(game)
        if due == "join":
            return tuple(s for s in range(len(game.players)) if s not in self.keys)
        pending = self.pending
        if due == "arrange":
            return (pending.need[1],)
        if due != "link":
            return ()
        seats = [s for s in range(len(game.players)) if s not in pending.links]
        if game.header.protocol > 1 and pending.first in seats:  # (see ``on_append``)
            seats.remove(pending.first)
            seats.insert(0, pending.first)
        return tuple(seats)

    def due(self, game) -> str:
        pending = self.pending
        if not self.joined(game):
            return "arrange" if self.arranges_before_joins(game) else "join"
        if pending is None:
            return ""
        return "link" if pending.need[0] == "links" else "arrange"

    def arranges_before_joins(self, game) -> bool:
        """Protocol 2, two players: a player who has joined arranges their own pile before the
        other joins (the creator's goes in the invitation): the pile comes from their secret
        alone, and the links that draw from it wait for every join all the same."""
        pending = self.pending
        return (
            game.header.protocol > 1
            and len(game.players) == 2
            and pending is not None
            and pending.need[0] == "arrange"
            and pending.need[1] in self.keys
        )

    def mine(self, game, actor: int):
        """This copy's player and private secret, if this copy makes ``actor``'s records."""
        header = game.header
        if header.peer_secret is not None and header.viewer == actor:
            return (actor, header.peer_secret)
        if actor in self.audit_secrets:
            return (actor, self.audit_secrets[actor])
        return None

    def waiting_rng(self, game, pending: Pending):  # pragma: no cover (each mode has its own)
        raise NotImplementedError

    def advance(self, game, pending: Pending, rng=None) -> tuple:
        """Run a waiting decision with what it has been given: ``(events it gives now, state
        after them)``; what it still needs goes with the record being made."""
        rng = self.waiting_rng(game, pending) if rng is None else rng
        self.unmade = False
        decision = game.decider.run(pending.base, pending.moves, rng, pending.openings)
        events, state, pending.need = decision.events, decision.state, decision.waits
        pending.first = None  # (the record that asks, or the last join, deals first)
        self.unmade = decision.unmade  # (the referee takes those from the record)
        fresh = events[pending.emitted :]
        pending.emitted = len(events)
        self.next_pending = (game.seq, pending if pending.need is not None else None)
        return fresh, state

    # -------------------------------------------------------------------- joins and deals
    def check_join(self, game, seat: int, sealed) -> tuple:
        """A join: a player not joined yet, with a public key and a chain tip (hosted: a
        nonce)."""
        if not 0 <= seat < len(game.players) or seat in self.keys:
            raise IllegalCommand(
                f"{game.name_of(seat)} has already joined", code="bad-join", rule=ENGINE_RULE
            )
        if (
            type(sealed) is not tuple
            or len(sealed) != 3
            or not all(type(v) is bytes and len(v) == LINK_BYTES for v in sealed)
        ):
            raise IllegalCommand(
                "malformed join (not [public key, chain tip, exchange key])",
                code="bad-join",
                rule=ENGINE_RULE,
            )
        return self.last_join(game, seat, sealed)

    def last_join(self, game, seat: int, sealed) -> tuple:
        """What a join gives besides itself (the hosted mode's last join: the setup)."""
        return (), game.state

    def check_deal(self, game, seat: int, sealed) -> tuple:
        """A deal: the supply the waiting decision needs from ``seat``; ``(events, state)``:
        the rules' events once the supply lets the decision go on."""
        due = self.due(game)
        if due not in ("link", "arrange") or seat not in self.waiting_for(game):
            return super().check_deal(game, seat, sealed)
        pending = self.pending.copy()
        if type(sealed) is not tuple or len(sealed) != 2 or sealed[0] != due:
            raise IllegalCommand(
                f"malformed deal (a {due} is due)", code="bad-deal", rule=ENGINE_RULE
            )
        players = game.players
        if due == "link":
            if not link_follows(sealed[1], self.last_link[seat]):
                raise IllegalCommand(
                    f"{players[seat]}'s link does not follow their chain (a share of "
                    f"the randomness other than the one committed at the join)",
                    code="bad-link",
                    rule=ENGINE_RULE,
                )
            pending.links[seat] = sealed[1]
            if len(pending.links) < len(players):
                self.next_pending = (game.seq, pending)
                return (), game.state
            links = [pending.links[s] for s in range(len(players))]
            epoch, supplies, reply = len(pending.supplies.keys), pending.supplies, pending.reply
            if reply is None:
                supplies.keys.append(epoch_key(self.game_id(game), pending.seq, epoch, links))
            else:  # (a signature stood for a share: named by ``reply``, ``PeerTrust``)
                supplies.keys.append(epoch_key(self.game_id(game), reply, REPLY_EPOCH, links))
                supplies.streams[epoch] = b"reply:%d" % reply
            pending.links, pending.reply, pending.sharer = {}, None, None
            return self.advance(game, pending)
        _, owner, _index, items = pending.need
        pile = sealed[1]
        if (
            type(pile) is not tuple
            or len(pile) != len(items)
            or not all(type(c) is Secret and c.owners == 1 << owner for c in pile)
        ):
            raise IllegalCommand(
                f"malformed deal: not {len(items)} cards owned by {players[owner]}",
                code="bad-deal",
                rule=ENGINE_RULE,
            )
        if any(c.known for c in pile) and sorted(map(repr, (c.value for c in pile))) != sorted(
            map(repr, items)
        ):
            raise IllegalCommand(
                "the arranged pile is not the cards asked for", code="bad-deal", rule=ENGINE_RULE
            )
        published = self.audit_secrets.get(owner)
        if published is not None:  # (the audit: a pile is made from its owner's secret)
            _, _, index, _ = pending.need
            made = arrangement(published, game.header.game_id, pending.seq, owner, index, items)
            if [c.commitment for c in made] != [c.commitment for c in pile]:
                raise IllegalCommand(
                    f"{players[owner]}'s pile was not arranged from their secret (a stacked pile)",
                    code="bad-deal",
                    rule=ENGINE_RULE,
                )
        if any(c.commitment in game.committed for c in pile):
            raise IllegalCommand(
                "a pile arranged before in this game (a signed deal replayed)",
                code="replayed",
                rule=ENGINE_RULE,
            )
        pending.supplies.arrangements.setdefault(owner, []).append(pile)
        return self.advance(game, pending)

    def supply(self, game, seat: int):
        """What this copy supplies as ``seat``'s next deal (it holds their private secret)."""
        secret = game.header.peer_secret
        if secret is None or game.header.viewer != seat:
            return super().supply(game, seat)
        if self.due(game) == "link":
            return ("link", chain_of(secret)[self.links_given.get(seat, 0) + 1])
        _, owner, index, items = self.pending.need
        return (
            "arrange",
            arrangement(secret, game.header.game_id, self.pending.seq, owner, index, items),
        )

    def deal_held(self, game) -> list:
        """Append the deals due from this copy's player (a copy supplies its share as soon as
        it is asked for; nothing in it is a choice)."""
        start = game.seq
        me = game.header.viewer
        while (
            game.header.peer_secret is not None
            and self.due(game) in ("link", "arrange")
            and me in self.waiting_for(game)
        ):
            sealed = game.supply(me)
            events, state = self.check_deal(game, me, sealed)
            game.append(game.make(Kind.DEAL, me, "", sealed, events), state)
        return game.records[start:]

    def join(self, game, seat: int, public_key: bytes) -> list:
        """This copy's player joins (``public_key``: theirs, to check their signatures), then
        deals what is due from them."""
        start = game.seq
        secret = game.header.peer_secret
        sealed = (public_key, chain_of(secret)[0], exchange_public(secret))
        events, state = self.check_join(game, seat, sealed)
        game.append(game.make(Kind.JOIN, seat, "", sealed, events), state)
        self.deal_held(game)
        return game.records[start:]

    # -------------------------------------------------------------------- records
    def on_append(self, game, record) -> None:
        """Keys and chain tips from joins, links from deals, and the waiting decision the
        record leaves."""
        next_pending = self.next_pending
        if next_pending is not None:
            self.next_pending = None
            if next_pending[0] == record.seq:
                self.pending = next_pending[1]
        kind = record.kind
        if kind == Kind.JOIN:
            self.keys[record.actor] = record.sealed[0]
            self.last_link[record.actor] = record.sealed[1]
            self.exchange[record.actor] = record.sealed[2]
        elif kind == Kind.DEAL and record.sealed[0] == "arrange":
            game.committed.update(c.commitment for c in record.sealed[1])
        elif kind == Kind.DEAL and record.sealed[0] == "link":
            self.last_link[record.actor] = record.sealed[1]
            self.links_given[record.actor] = self.links_given.get(record.actor, 0) + 1
        pending = self.pending
        if pending is not None and pending.first is None and self.due(game) == "link":
            # The links fall due with this record (it asked for them, or completed what asked,
            # or was the last join): its player's copy deals first, at once.  From protocol 2
            # that deal comes first in the canonical order (``waiting_for``), so the copy that
            # completes the links holds the others' records in the order they hold them, and
            # its deal rides on its next move file instead of a reply of its own.
            pending.first = record.actor

    def letter_writer(self, game, actor: int) -> bytes | None:
        """The letters key of whoever writes ``actor``'s records' letters."""
        return self.exchange.get(actor)

    def open_letters(self, game, actor: int, seq: int, letters, openings: tuple) -> tuple:
        """``openings`` with those of the letters addressed to this copy's player added."""
        header = game.header
        writer = self.letter_writer(game, actor)
        if not letters or header.peer_secret is None or header.viewer is None or writer is None:
            return openings
        found = read_letters(
            header.peer_secret, header.viewer, writer, self.game_id(game), seq, letters
        )
        if not found:
            return openings
        out = list(openings)
        for index, opening in found.items():
            while len(out) <= index:
                out.append(None)
            if out[index] is None:
                out[index] = opening
        return tuple(out)


class JoinsFirst(Rng):
    """Randomness before every player's nonce is in (the hosted mode): any draw waits."""

    def __init__(self) -> None:
        super().__init__(b"", b"")

    def block(self) -> bytes:
        raise NeedsInput(("joins",))


__all__ = ["JoinsFirst", "Pending", "SecretUnavailable", "SignedTrust"]
