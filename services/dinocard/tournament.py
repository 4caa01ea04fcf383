"""Dinocard's battles as a tournament's matches (`GameSpec.tournament`, docs/tournaments.md and
docs/dinocard/decisions.md, "Tournaments").

A Dinocard battle is computed whole from two packs and a seed, so a tournament's round is decided as it
opens: each table's battle is a match of kind 'tournoi' between each player's best active pack (highest
level, then experience, then the oldest), computed, played to its end and settled in the round's unit.
Neither pack gains or loses anything, no daily challenge is used (the rulebook pays the attacker of a
challenge; a tournament's battle has no attacker). A player with no active pack when the round opens is
absent. Each player's DM carries « Regarder »: the battle whole with its log, which its two players may
open anywhere and anyone in its server.
"""

from __future__ import annotations

from datetime import datetime

from core.errors import NotAllowed, NotFound
from services.dinocard.battles import DinocardBattles, play_out
from services.dinocard.packs import Pack, active_packs
from services.dinocard.results import KIND_TOURNAMENT, MATCHES
from services.infra.games import Opened, TournamentPairing
from services.infra.messages import Button, MessageSpec, Text
from store.connection import Connection

WATCH = "dino:twatch:{match}"
UNKNOWN = "dinocard.error.tournament.unknown"


def best_pack(conn: Connection, player: int) -> Pack | None:
    packs = active_packs(conn, player)
    return min(packs, key=lambda p: (-p.level, -p.xp, p.id)) if packs else None


class DinocardTournament:
    def __init__(self, battles: DinocardBattles) -> None:
        self.battles = battles

    def check_entry(self, conn: Connection, now: datetime, player: int) -> None:
        self.battles.welcome(conn, now, player)
        if best_pack(conn, player) is None:
            raise NotAllowed("dinocard.error.tournament.no_pack")

    def rating(self, conn: Connection, player: int) -> int:
        pack = best_pack(conn, player)
        return 0 if pack is None else pack.level

    def open_match(self, conn: Connection, now: datetime, pairing: TournamentPairing) -> Opened:
        packs = [best_pack(conn, player) for player in pairing.players]
        first, second = packs
        if first is None or second is None:
            return Opened(None, present=(first is not None, second is not None))
        key = f"dinocard:tournament:{pairing.tournament}:{pairing.round}:{pairing.table}"
        found = MATCHES.by_request(conn, key)
        if found is None:
            seed, setup, state = self.battles._compute(
                [(p.owner_id, p.cards, p.skills, ()) for p in (first, second)]
            )
            created = MATCHES.create(
                conn,
                now,
                guild_id=pairing.guild_id,
                channel_id=pairing.channel_id,
                seats=pairing.players,
                kind=KIND_TOURNAMENT,
                status="live",
                request_key=key,
                seed=seed,
                setup=setup,
                state=state,
                data={
                    "packs": [first.id, second.id],
                    "names": [first.name, second.name],
                    "levels": [first.level, second.level],
                    "tournament": pairing.tournament,
                },
            )
            found, _ = play_out(conn, now, created, "timeout")
        assert found.state is not None
        winner = found.state.winner
        return Opened(found.id, decided=True, winner=None if winner < 0 else winner)

    def at_deadline(self, conn: Connection, now: datetime, match_id: int) -> tuple[bool, bool] | None:
        return None  # decided as it opened

    def buttons(self, match_id: int) -> tuple[Button, ...]:
        return (Button(Text("dinocard.tournament.watch"), WATCH.format(match=match_id), "primary"),)

    async def watch(self, match_id: int, viewer: int, *, guild: int | None) -> MessageSpec:
        """« Regarder »: the battle whole, with its log; its players anywhere, anyone in its server."""

        def unit(conn: Connection) -> MessageSpec:
            try:
                match = MATCHES.load_trusted(conn, match_id)
            except NotFound:
                raise NotFound(UNKNOWN) from None
            here = guild is not None and match.guild_id == guild
            if match.kind != KIND_TOURNAMENT or not (viewer in match.seats or here):
                raise NotFound(UNKNOWN)
            return self.battles.spec_of(match, controls=False, log=True)

        return await self.battles.db.read(unit)
