"""Chocobataille's rows of the authorization matrix (tests/e2e/test_authorization_matrix.py)."""

from __future__ import annotations

from tests.e2e.authorization import (
    ADMIN_ELSEWHERE,
    AFTER_END,
    OTHER_SERVER,
    STRANGER,
    STRANGER_ELSEWHERE,
    TWO_SEATS,
    Row,
    Scene,
    World,
    click,
    command,
    id_in,
)
from tests.e2e.choco.helpers import challenge_accepted, choco, with_bronze_deck
from tests.e2e.messages import public_answer
from tests.e2e.show_off import rare_copy


async def choco_challenge(w: World) -> Scene:
    alice, bob = w.user("alice"), w.user("bob")
    await with_bronze_deck(w.h, alice)
    await with_bronze_deck(w.h, bob)
    made = public_answer(
        await w.h.emu.run_command(
            alice, "choco défi", {"joueur": bob, "ligue": "Ligue de Bronze"}, channel=w.here
        )
    )
    offer = id_in(made, "choco:accept:")

    async def end(w: World) -> None:
        await w.h.emu.click(bob, "Accepter", message=made)
        await w.h.settle()

    return Scene({"offer": offer}, "bob", "alice", end=end)


async def choco_game(w: World) -> Scene:
    alice, bob = w.user("alice"), w.user("bob")
    await with_bronze_deck(w.h, alice)
    await with_bronze_deck(w.h, bob)
    game = await challenge_accepted(w.h, alice, bob, channel=w.here)
    return Scene({"game": game.id}, "alice", "bob")


async def choco_practice(w: World) -> Scene:
    """A practice game against the bot: its buttons name it by number like any game's."""
    alice = w.user("alice")
    await with_bronze_deck(w.h, alice)
    started = await w.h.emu.run_command(alice, "choco entraînement", {}, channel=w.here)
    assert started.message is not None
    await w.h.settle()
    games = await choco(w.h).games.live_games(alice.id)
    return Scene({"game": next(g.id for g in games if g.mode == "practice")}, "alice")


ROWS = (
    Row("choco Accepter", choco_challenge, click("choco:accept:{offer}"), TWO_SEATS, replayed_after_end=True),
    Row(
        "choco Refuser", choco_challenge, click("choco:decline:{offer}"), (STRANGER, OTHER_SERVER, AFTER_END)
    ),
    Row("choco Voir ma main", choco_game, click("choco:hand:{game}"), (STRANGER, OTHER_SERVER)),
    Row("choco Déclarer mon tour", choco_game, click("choco:panel:{game}"), (STRANGER, OTHER_SERVER)),
    Row(
        "choco Voir ma main (practice)", choco_practice, click("choco:hand:{game}"), (STRANGER, OTHER_SERVER)
    ),
    Row(
        "choco Déclarer mon tour (practice)",
        choco_practice,
        click("choco:panel:{game}"),
        (STRANGER, OTHER_SERVER),
    ),
    Row(
        "/choco referee-end (practice)",
        choco_practice,
        command("choco referee-end", game="{game}"),
        (ADMIN_ELSEWHERE,),
    ),
    Row("/choco referee-end", choco_game, command("choco referee-end", game="{game}"), (ADMIN_ELSEWHERE,)),
    Row(
        "/choco referee-extend",
        choco_game,
        command("choco referee-extend", hours="1", game="{game}"),
        (ADMIN_ELSEWHERE,),
    ),
    Row(
        "/choco referee-penalty",
        choco_game,
        command("choco referee-penalty", game="{game}"),
        (ADMIN_ELSEWHERE,),
    ),
    Row(
        "/choco referee-cancel",
        choco_game,
        command("choco referee-cancel", game="{game}"),
        (ADMIN_ELSEWHERE,),
    ),
    Row("/choco referee-log", choco_game, command("choco referee-log", game="{game}"), (ADMIN_ELSEWHERE,)),
    Row(
        "choco Montrer",
        rare_copy("choco", "nostradamus"),
        click("showoff:choco:{copy}"),
        (STRANGER, STRANGER_ELSEWHERE),
    ),
)
