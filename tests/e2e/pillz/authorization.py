"""Pillz's rows of the authorization matrix (tests/e2e/test_authorization_matrix.py)."""

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


async def pillz_challenge(w: World) -> Scene:
    return await challenge_scene(w, "pillz défi", "pillz")


async def pillz_duel(w: World) -> Scene:
    alice, bob = w.user("alice"), w.user("bob")
    duels, duel = await accepted_duel(w, "pillz défi", "pillz")
    names = {alice.id: "alice", bob.id: "bob"}
    to_act = duel.seats[duel.to_act()[0]]
    other = duel.seats[1 - duel.to_act()[0]]
    assert to_act is not None
    assert other is not None
    guild = here(w.h)

    async def end(w: World) -> None:
        current = await duels.get(duel.id)
        while current.status == "live":
            assert current.state is not None
            seat = current.to_act()[0]
            player = current.seats[seat]
            assert player is not None
            card = next(f.card_id for f in current.state.hands[seat] if not f.used)
            current = await duels.play(current.id, player, current.version, card, 0, guild=guild)
        await w.h.settle()

    return Scene({"duel": duel.id, "version": duel.version}, names[to_act], names[other], end=end)


async def pillz_deck(w: World) -> Scene:
    """Alice's active deck in slot 1 (her starter, given by her first Pillz command): the deck a lab plays."""
    await w.h.emu.run_command(w.user("alice"), "pillz collection", channel=w.here)
    await w.h.settle()
    return Scene({"slot": 1}, "alice")


ROWS = (
    # The lab plays the actor's own deck: a stranger naming alice's slot reaches their own, empty one
    Row("/pillz labo", pillz_deck, command("pillz lab", slot="{slot}"), (STRANGER,)),
    # Pillz duels
    Row("pillz Accepter", pillz_challenge, click("pillz:accept:{duel}"), TWO_SEATS),
    Row("pillz Refuser", pillz_challenge, click("pillz:decline:{duel}"), (STRANGER, OTHER_SERVER, AFTER_END)),
    Row("pillz Jouer (controls)", pillz_duel, click("pillz:open:{duel}"), TWO_SEATS),
    Row("pillz pillz amount", pillz_duel, click("pillz:bet:{duel}:{version}:0", ["1"]), TWO_SEATS),
    Row("pillz Voir une carte", pillz_duel, click("pillz:cards:{duel}"), TWO_SEATS),
    Row("pillz play", pillz_duel, click("pillz:go:{duel}:{version}:0:0"), TWO_SEATS),
    Row(
        "pillz Montrer",
        rare_copy("pillz", "moines-the-veiled-patriarch"),
        click("showoff:pillz:{copy}"),
        (STRANGER, STRANGER_ELSEWHERE),
    ),
)
