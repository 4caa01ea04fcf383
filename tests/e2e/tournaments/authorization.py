"""The tournaments' rows of the authorization matrix (tests/e2e/test_authorization_matrix.py): the
commands naming a tournament, the « Prêt » of a tournament's duel, the « Regarder » of a Dinocard
tournament battle. Only the server's managers cancel; a tournament's number, or a match's id, from another
server reads as unknown; a duel's « Prêt » belongs to its two players."""

from __future__ import annotations

from datetime import timedelta

from tests.e2e.authorization import (
    ADMIN_ELSEWHERE,
    AFTER_END,
    OTHER_SERVER,
    STRANGER,
    STRANGER_ELSEWHERE,
    Row,
    Scene,
    World,
    click,
    command,
)
from tests.e2e.tournaments.scenes import created, joined, match_of, started


async def open_tournament(w: World) -> Scene:
    """A tournament alice registered for; it ends when its manager cancels it."""
    tournament = await created(w.h, w.here)
    await joined(w.h, w.here, tournament, ("alice",))

    async def end(w: World) -> None:
        await w.h.emu.run_command(
            w.user("olivia"), "tournoi annuler", {"tournoi": tournament}, channel=w.here
        )
        await w.h.settle()

    return Scene({"tournament": tournament}, "alice", end=end)


async def managed_tournament(w: World) -> Scene:
    """The same, as its manager olivia acts on it."""
    scene = await open_tournament(w)
    return Scene(scene.ids, "olivia", end=scene.end)


async def waiting_duel(w: World, game: str) -> Scene:
    """Alice's duel of the first round, waiting for both players' « Prêt »; it ends at the deadline."""
    tournament = await created(w.h, w.here, game)
    await joined(w.h, w.here, tournament)
    await started(w.h)
    match, opponent = match_of(w.h, w.user("alice"))
    name = next(n for n in ("bob", "dave", "erin") if w.user(n).id == opponent)

    async def end(w: World) -> None:
        await w.h.advance(timedelta(hours=1))

    return Scene({"match": match}, "alice", name, end=end)


async def pillz_duel(w: World) -> Scene:
    return await waiting_duel(w, "pillz")


async def immortals_duel(w: World) -> Scene:
    return await waiting_duel(w, "immortals")


async def dinocard_battle(w: World) -> Scene:
    """A Dinocard tournament, decided at its start: alice's battle."""
    assert w.h.bot is not None
    dino = w.h.bot.services.games["dinocard"]
    for name in ("alice", "bob", "dave", "erin"):
        await dino.packs.create(w.user(name).id, "Feu", None, element="feu")
    tournament = await created(w.h, w.here, "dinocard")
    await joined(w.h, w.here, tournament)
    await started(w.h)
    match, _ = match_of(w.h, w.user("alice"), "tournoi")
    return Scene({"match": match}, "alice")


ELSEWHERE = (OTHER_SERVER, STRANGER_ELSEWHERE)
ROWS = (
    Row(
        "/tournament cancel",
        managed_tournament,
        command("tournoi annuler", tournoi="{tournament}"),
        (STRANGER, *ELSEWHERE, ADMIN_ELSEWHERE, AFTER_END),
    ),
    Row(
        "/tournament leave",
        open_tournament,
        command("tournoi quitter", tournoi="{tournament}"),
        (STRANGER, *ELSEWHERE, AFTER_END),
    ),
    Row(
        "/tournament join",
        open_tournament,
        command("tournoi rejoindre", tournoi="{tournament}"),
        (*ELSEWHERE, AFTER_END),
    ),
    Row("/tournament show", open_tournament, command("tournoi voir", tournoi="{tournament}"), ELSEWHERE),
    Row(
        "pillz Prêt (tournament)",
        pillz_duel,
        click("pillz:tready:{match}"),
        (STRANGER, *ELSEWHERE, AFTER_END),
    ),
    Row(
        "immortals Prêt (tournament)",
        immortals_duel,
        click("immortals:tready:{match}"),
        (STRANGER, *ELSEWHERE),
    ),
    Row("dino Regarder (tournament)", dinocard_battle, click("dino:twatch:{match}"), (STRANGER_ELSEWHERE,)),
)
