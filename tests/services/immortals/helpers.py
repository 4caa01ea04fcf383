"""Shared set-up for the Immortal's War service tests: the players and the server, and a duel played to
its end."""

from __future__ import annotations

from services.immortals import ImmortalsServices
from services.immortals.duel_match import DuelRow

GUILD, CHANNEL = 500, 600
ALICE, BOB, CAROL = 11, 12, 13


async def play_out(services: ImmortalsServices, duel: DuelRow) -> DuelRow:
    """The seat to act (the engaging seat, then the counter) fights with its first unit that has not
    fought yet, until the duel ends."""
    while duel.status == "live":
        assert duel.state is not None
        (seat,) = duel.to_act()
        player = duel.seats[seat]
        assert player is not None
        fought = {r.fighters[seat].uid for r in duel.state.history}
        place = next(i for i, u in enumerate(duel.state.units[seat]) if u.uid not in fought)
        duel = await services.duels.choose(duel.id, player, duel.state.round, place, None, guild=GUILD)
    return duel
