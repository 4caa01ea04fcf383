"""Immortal's War's rows of the authorization matrix (tests/e2e/test_authorization_matrix.py).

Both seats choose at once, so the other seat may open its own controls: the duel's scene is one where
the opponent has already chosen this round, and every control is refused to them as to a stranger."""

from __future__ import annotations

from tests.e2e.authorization import (
    AFTER_END,
    OTHER_SERVER,
    STRANGER,
    STRANGER_ELSEWHERE,
    TWO_SEATS,
    Row,
    Scene,
    World,
    accepted_duel,
    challenge_scene,
    click,
)
from tests.e2e.hoss.test_ranked import here
from tests.e2e.show_off import rare_copy


async def challenge(w: World) -> Scene:
    return await challenge_scene(w, "immortels defi", "immortals")


async def duel(w: World) -> Scene:
    duels, row = await accepted_duel(w, "immortels defi", "immortals")
    bob = w.user("bob")
    guild = here(w.h)
    await duels.choose(row.id, bob.id, 1, 0, None, guild=guild)
    await w.h.settle()

    async def end(w: World) -> None:
        current = await duels.get(row.id)
        while current.status == "live":
            assert current.state is not None
            for seat, player in enumerate(current.seats):
                if current.state.pending[seat] is None and current.status == "live":
                    fought = {r.fighters[seat].uid for r in current.state.history}
                    place = next(i for i, u in enumerate(current.state.units[seat]) if u.uid not in fought)
                    current = await duels.choose(
                        row.id, player, current.state.round, place, None, guild=guild
                    )
                    break
        await w.h.settle()

    return Scene({"duel": row.id, "round": 1}, "alice", "bob", end=end)


ROWS = (
    Row("immortals Accepter", challenge, click("immortals:accept:{duel}"), TWO_SEATS),
    Row(
        "immortals Refuser", challenge, click("immortals:decline:{duel}"), (STRANGER, OTHER_SERVER, AFTER_END)
    ),
    Row("immortals Jouer (controls)", duel, click("immortals:open:{duel}"), TWO_SEATS),
    Row("immortals unit", duel, click("immortals:unit:{duel}:{round}:-", ["0"]), TWO_SEATS),
    Row("immortals spell", duel, click("immortals:spell:{duel}:{round}:0", ["-"]), TWO_SEATS),
    Row("immortals validate", duel, click("immortals:go:{duel}:{round}:0:-"), TWO_SEATS),
    Row(
        "immortals Montrer",
        rare_copy("immortals", "lich"),
        click("showoff:immortals:{copy}"),
        (STRANGER, STRANGER_ELSEWHERE),
    ),
)
