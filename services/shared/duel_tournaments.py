"""A duel of secret choices (services/shared/duels.py: Pillz, Immortal's War) as a tournament's match
(`GameSpec.tournament`, docs/tournaments.md, "The games' matches").

The bot makes the match when the round opens: a match of kind 'tournament', still pending, seat 0 the
table's first player. Each player says they are there with « Prêt » (the DM the round sends them); when
both are, the duel starts exactly as an accepted challenge does (each player's active deck, the public
message, the server's choice time for each move, the AI choosing for a late seat). A player's deck is
checked at their click, so each reads their own reasons; an opponent whose deck broke after their click
is set back to not ready and told, rather than leaving the match stuck. At the round's deadline a match
not started ends 'expired', and who clicked « Prêt » decides the table (`at_deadline`). A started duel
ends as any duel of the game and reports its winner (`services.community.tournaments.results.match_over`).

A click is accepted from the match's server or from the player's DMs (the DM carries the button); an id
of a match that is not the clicker's reads as unknown there.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, Generic, Protocol, TypeVar

from core.clock import Clock
from core.errors import NotAllowed, NotFound
from engine.errors import DomainError
from services.infra.games import Opened, TournamentGame, TournamentPairing, TournamentPlay
from services.infra.messages import Button, Text
from services.shared.matches import Match, Matches
from store.connection import Connection
from store.db import Database

R = TypeVar("R", bound=Match[Any])
KIND = "tournament"
READY_BUTTON = "matches.tournament.ready_button"


class DuelPlay(Protocol[R]):
    """What a tournament asks of a game's duels (`SecretDuels`, services/shared/duels.py, which builds
    its `DuelTournament`): a player's setup, the start, and the game's rating of a player."""

    @property
    def db(self) -> Database: ...
    @property
    def clock(self) -> Clock: ...
    @property
    def duels(self) -> Matches[Any, R]: ...
    @property
    def game(self) -> str: ...
    def _setup_of(self, conn: Connection, now: datetime, player: int) -> Any: ...
    def _start(self, conn: Connection, now: datetime, duel: R, setups: tuple[Any, Any]) -> R: ...
    def rating(self, conn: Connection, player: int) -> int: ...


class DuelTournament(Generic[R]):
    """One game's tournament side, over its duels."""

    def __init__(self, duels: DuelPlay[R]) -> None:
        self.duels = duels
        self.matches = duels.duels
        self.game = duels.game

    def ready_id(self, match_id: int) -> str:
        return f"{self.game}:tready:{match_id}"

    # --- the tournament's side (services/infra/games.py, TournamentPlay) -----------------------------

    def check_entry(self, conn: Connection, now: datetime, player: int) -> None:
        self.duels._setup_of(conn, now, player)

    def rating(self, conn: Connection, player: int) -> int:
        return self.duels.rating(conn, player)

    def open_match(self, conn: Connection, now: datetime, pairing: TournamentPairing) -> Opened:
        key = f"{self.game}:tournament:{pairing.tournament}:{pairing.round}:{pairing.table}"
        found = self.matches.by_request(conn, key)
        if found is None:
            found = self.matches.create(
                conn,
                now,
                guild_id=pairing.guild_id,
                channel_id=pairing.channel_id,
                seats=pairing.players,
                kind=KIND,
                request_key=key,
                expires_at=pairing.deadline,
                data={"tournament": pairing.tournament, "round": pairing.round, "ready": [False, False]},
            )
        return Opened(found.id)

    def at_deadline(self, conn: Connection, now: datetime, match_id: int) -> tuple[bool, bool] | None:
        duel = self.matches.load_trusted(conn, match_id)
        if duel.status != "pending":
            return None
        ready = _ready(duel)
        self.matches.end(conn, now, duel, "expired")
        return ready[0], ready[1]

    def buttons(self, match_id: int) -> tuple[Button, ...]:
        return (Button(Text(READY_BUTTON), self.ready_id(match_id), "success"),)

    # --- « Prêt » --------------------------------------------------------------------------------------------

    async def ready(self, match_id: int, player: int, *, guild: int | None) -> tuple[R, Text]:
        """The player is there: the duel starts when both are. Returns the duel and what the player is
        told."""
        now = self.duels.clock.now()

        def unit(conn: Connection) -> tuple[R, Text]:
            duel = self._theirs(conn, match_id, player, guild)
            seat = duel.seat_of(player)
            if duel.status == "live":
                raise NotAllowed("matches.tournament.started", channel=f"<#{duel.channel_id}>")
            if duel.status != "pending":
                raise NotAllowed("matches.tournament.over")
            ready = _ready(duel)
            if ready[seat]:
                raise NotAllowed("matches.tournament.already_ready", opponent=_other(duel, seat))
            mine = self.duels._setup_of(conn, now, player)  # the clicker's own reasons, if their deck broke
            ready[seat] = True
            other = 1 - seat
            if not ready[other]:
                return self._save_ready(conn, now, duel, ready), self._waiting(duel, seat)
            try:
                theirs = self.duels._setup_of(conn, now, _player(duel, other))
            except DomainError:
                ready[other] = False
                saved = self._save_ready(conn, now, duel, ready)
                return saved, Text("matches.tournament.opponent_deck", {"player": _other(duel, seat)})
            setups = (mine, theirs) if seat == 0 else (theirs, mine)
            started = self.duels._start(conn, now, self._save_ready(conn, now, duel, ready), setups)
            return started, Text("matches.tournament.go", {"channel": f"<#{duel.channel_id}>"})

        return await self.duels.db.write(unit)

    def _theirs(self, conn: Connection, match_id: int, player: int, guild: int | None) -> R:
        if guild is not None:
            duel = self.matches.load(conn, match_id, guild=guild)
        else:
            duel = self.matches.load_trusted(conn, match_id)
            if player not in duel.seats:
                raise NotFound(self.matches.rules.texts.not_found, id=match_id)
        if duel.kind != KIND:
            raise NotFound(self.matches.rules.texts.not_found, id=match_id)
        return duel

    def _save_ready(self, conn: Connection, now: datetime, duel: R, ready: list[bool]) -> R:
        return self.matches.save(conn, duel, now, data={**duel.data, "ready": ready})

    def _waiting(self, duel: R, seat: int) -> Text:
        at = f"<t:{int(duel.expires_at.timestamp())}:f>" if duel.expires_at is not None else ""
        return Text("matches.tournament.waiting", {"opponent": _other(duel, seat), "at": at})


class _WithTournament(Protocol):
    @property
    def tournament(self) -> TournamentPlay: ...


class _DuelServices(Protocol):
    @property
    def duels(self) -> _WithTournament: ...


def _of_duels(services: _DuelServices) -> TournamentPlay:
    return services.duels.tournament


# A duel game's `GameSpec.tournament`: its built services' duels, as tournament matches.
DUEL_TOURNAMENTS = TournamentGame(_of_duels)


def _ready(duel: Match[Any]) -> list[bool]:
    return [bool(flag) for flag in duel.data.get("ready", [False, False])]


def _player(duel: Match[Any], seat: int) -> int:
    player = duel.seats[seat]
    assert player is not None  # a tournament's seats are players
    return player


def _other(duel: Match[Any], seat: int) -> str:
    return f"<@{_player(duel, 1 - seat)}>"


__all__ = ["DUEL_TOURNAMENTS", "KIND", "READY_BUTTON", "DuelPlay", "DuelTournament"]
