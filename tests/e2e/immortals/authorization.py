"""Immortal's War's rows of the authorization matrix (tests/e2e/test_authorization_matrix.py).

The engaging seat chooses first, then the other counters: the duel's scene is one where the engaging
player has engaged round 1, so the counter owns the controls and every control is refused to the engaging
player (its choice is made) as to a stranger."""

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
    command,
)
from tests.e2e.show_off import rare_copy
from tests.support.harness import here


async def challenge(w: World) -> Scene:
    return await challenge_scene(w, "immortels défi", "immortals")


async def duel(w: World) -> Scene:
    duels, row = await accepted_duel(w, "immortels défi", "immortals")
    guild = here(w.h)
    engager = row.state.engager
    names = ("alice", "bob")
    await duels.choose(row.id, row.seats[engager], 1, 0, None, guild=guild)
    await w.h.settle()

    async def end(w: World) -> None:
        current = await duels.get(row.id)
        while current.status == "live":
            assert current.state is not None
            (seat,) = current.to_act()
            fought = {r.fighters[seat].uid for r in current.state.history}
            place = next(i for i, u in enumerate(current.state.units[seat]) if u.uid not in fought)
            current = await duels.choose(
                row.id, current.seats[seat], current.state.round, place, None, guild=guild
            )
        await w.h.settle()

    return Scene({"duel": row.id, "round": 1}, names[1 - engager], names[engager], end=end)


async def immortals_deck(w: World) -> Scene:
    """Alice's deck (her starter, given by her first command): the deck a lab plays."""
    await w.h.emu.run_command(w.user("alice"), "immortels collection", channel=w.here)
    await w.h.settle()
    return Scene({}, "alice")


ROWS = (
    # The lab plays the actor's own deck only: a stranger has none
    Row("/immortels labo", immortals_deck, command("immortals lab", terrain="foret"), (STRANGER,)),
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
