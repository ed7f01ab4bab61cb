"""Loading: a game file's bytes to a ``Game``, above the file format and the referee.

``load_game`` reads our own file back: the chain checked and the events folded, the rules not
run again (fast), except for a peer or hosted copy, where what waits for whom is known only by
re-running them (``load_peer``; on the records after the game the last checked read saved,
``_checked.resume``, when it matches).  A file read to be added to is re-derived record by record
(``load_checked``).
"""

from __future__ import annotations

from ._errors import BoardstateError, CorruptFile, GameFileError, VerificationFailed
from ._fileformat import RawFile, _check_shape, _why, no_cyclic_gc, read_raw
from ._game import Game
from ._rederive import Referee
from .trust import PLUGS


def load_game(path_or_raw) -> Game:
    """Read our own file back: chain checked, events folded, rules not re-run (fast)."""
    with no_cyclic_gc():
        return _load_game(path_or_raw)


def _load_game(path_or_raw) -> Game:
    raw = path_or_raw if isinstance(path_or_raw, RawFile) else read_raw(path_or_raw)
    if raw.header.kind != "game":
        raise GameFileError(
            f"{raw.path}: this is a move file; apply it to a game with "
            f"'boardstate apply GAME {raw.path}'",
            code="not-a-game",
        )
    if PLUGS[raw.header.trust].loaded_by_rederiving:  # (our own file: its chain holds;
        from ._referee import load_peer  # verify checks signatures; an open game's needs none)

        if raw is not path_or_raw:
            return _rederived(path_or_raw, raw)
        return load_peer(raw, signed=False)
    game = Game.of_file(raw)
    decoder = raw.decoder(game)
    players = len(game.players)
    for i, (body, hash_, openings, _sig, _letters, _request) in enumerate(raw.iter_records()):
        try:
            fields = decoder.fields(body, openings)
            _check_shape(fields, players)
            game.load(fields, body, hash_, decoder)
        except CorruptFile as exc:
            raise type(exc)(f"{raw.path}: corrupt: {exc.reason}", code=exc.code) from None
        except BoardstateError:
            raise
        except (ValueError, TypeError) as exc:  # msgpack's and the decoder's own complaints
            raise CorruptFile(f"{raw.path}: corrupt at record {i} ({_why(exc)})") from None
        except MemoryError:
            raise
        except Exception as exc:  # the module's upcasters or ``evolve`` on events it never made
            raise CorruptFile(
                f"{raw.path}: corrupt at record {i} (events the rules cannot fold: {_why(exc)})"
            ) from None
    _probe(game, raw.path)
    return game


def _rederived(path, raw: RawFile) -> Game:
    """A peer or hosted copy read back by its path: the rules run on the records after the
    game the last checked read saved (``_checked.resume``: it matches the file byte for byte),
    or from the setup when nothing saved matches or anything fails (whose words say what)."""
    from ._checked import resume
    from ._referee import load_peer

    try:
        rows = raw.records
    except GameFileError:  # (a damaged file: the run from the setup says where, as ever)
        return load_peer(read_raw(path), signed=False)
    game = Game.of_file(raw)
    start = resume(game, rows).count
    if start:
        try:
            Referee(game, signed=False).run(rows[start:])
            return game
        except (VerificationFailed, GameFileError):
            pass
    return load_peer(raw, signed=False)  # (the rows read above, from the setup)


def _probe(game: Game, path) -> None:
    """Ask the rules about the state the records fold to, as every command will (whose turn,
    the result, each acting seat's commands): events that fold without complaint into a state
    the rules cannot use (a file forged and rechained) are a corrupt file, not a crash later.
    A file read to be added to is re-derived record by record instead (``load_checked``)."""
    try:
        if game.outcome() is None:
            viewer = game.header.viewer  # (a view holds its own player's secrets only)
            for seat in game.to_act():
                if viewer is None or seat == viewer:
                    game.legal(seat)
    except BoardstateError:
        raise
    except MemoryError:
        raise
    except Exception as exc:
        raise CorruptFile(
            f"{path}: corrupt (the rules cannot use the state its records fold to: {_why(exc)})"
        ) from None
