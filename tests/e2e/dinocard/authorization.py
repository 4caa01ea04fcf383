"""Dinocard's rows of the authorization matrix (tests/e2e/test_authorization_matrix.py)."""

from __future__ import annotations

from services.dinocard.results import MATCHES
from tests.e2e.authorization import (
    OTHER_SERVER,
    STRANGER,
    STRANGER_ELSEWHERE,
    TWO_SEATS,
    Row,
    Scene,
    World,
    click,
    command,
)
from tests.e2e.dinocard.helpers import dino, launched, packs_ready
from tests.e2e.show_off import rare_copy


async def dino_prepared(w: World) -> Scene:
    """alice's preparation of a challenge against bob's pack (its button carries her id and the server)."""
    mine, theirs = await packs_ready(w.h, w.here)
    assert w.here.guild is not None
    ids = {"pack": mine, "opponent": theirs, "guild": w.here.guild.id, "alice": w.user("alice").id}
    return Scene(ids, "alice")


async def dino_battle(w: World) -> Scene:
    _, theirs = await packs_ready(w.h, w.here)
    match = await launched(w.h, theirs, w.here)
    battles = dino(w.h).battles

    async def end(w: World) -> None:
        current = await battles.db.read(lambda conn: MATCHES.load_trusted(conn, match.id))
        await battles.advance(match.id, w.user("alice").id, current.version, "all", guild=current.guild_id)
        await w.h.settle()

    return Scene(
        {"match": match.id, "version": match.version, "number": match.number or 0}, "alice", "bob", end=end
    )


async def dino_pack(w: World) -> Scene:
    mine, _ = await packs_ready(w.h, w.here)
    return Scene({"pack": mine, "alice": w.user("alice").id}, "alice")


ROWS = (
    # The lab plays the actor's own packs only: alice's pack named by carol reads as unknown
    Row("/dino labo", dino_prepared, command("dino lab", pack="#{pack}"), (STRANGER,)),
    Row(
        "dino Lancer le Défi",
        dino_prepared,
        click("dino:go:{alice}:{guild}:{pack}:{opponent}:-"),
        (STRANGER, OTHER_SERVER),
    ),
    # the preparation page's controls: alice's own (refused to anyone else), or forged in the actor's name
    # (their page for alice's pack: the service finds no such pack of theirs)
    Row(
        "dino préparation ajouter",
        dino_prepared,
        click("dino:badd:{alice}:{pack}:{opponent}:-:-:-:1", ["0"]),
        (STRANGER,),
    ),
    Row(
        "dino préparation ajouter (forged)",
        dino_prepared,
        click("dino:badd:{me}:{pack}:{opponent}:-:-:-:1", ["0"]),
        (STRANGER,),
    ),
    Row(
        "dino préparation retirer",
        dino_prepared,
        click("dino:brem:{alice}:{pack}:{opponent}:0:-:-:1", ["0"]),
        (STRANGER,),
    ),
    Row(
        "dino préparation élément",
        dino_prepared,
        click("dino:bel:{me}:{pack}:{opponent}:-:-:-:1", ["1"]),
        (STRANGER,),
    ),
    Row(
        "dino préparation type",
        dino_prepared,
        click("dino:bty:{alice}:{pack}:{opponent}:-:-:-:1", ["1"]),
        (STRANGER,),
    ),
    Row(
        "dino préparation page", dino_prepared, click("dino:bpg:{me}:{pack}:{opponent}:-:-:-:2"), (STRANGER,)
    ),
    Row("dino Suivant", dino_battle, click("dino:next:{match}:{version}"), TWO_SEATS),
    Row("dino Fin de la phase", dino_battle, click("dino:phase:{match}:{version}"), TWO_SEATS),
    Row("dino Tout voir", dino_battle, click("dino:all:{match}:{version}"), TWO_SEATS),
    Row(
        "dino revoir (live)", dino_battle, command("dino revoir", numéro="{number}"), (STRANGER, OTHER_SERVER)
    ),
    Row("dino collection page", dino_pack, click("dino:page:{alice}:-:1"), (STRANGER,)),
    Row("dino pack voir", dino_pack, command("dino pack voir", pack="#{pack}"), (STRANGER,)),
    Row("dino pack dissoudre", dino_pack, command("dino pack dissoudre", pack="#{pack}"), (STRANGER,)),
    Row(
        "dino pack compétences",
        dino_pack,
        command("dino pack compétences", pack="#{pack}", compétence="life"),
        (STRANGER,),
    ),
    Row(
        "dino pack ajouter",
        dino_pack,
        command("dino pack ajouter", pack="#{pack}", cartes="Moueffe"),
        (STRANGER,),
    ),
    Row(
        "dino pack retirer",
        dino_pack,
        command("dino pack retirer", pack="#{pack}", cartes="Moueffe"),
        (STRANGER,),
    ),
    Row(
        "dino Montrer",
        rare_copy("dinocard", "foudre_divine"),
        click("showoff:dinocard:{copy}"),
        (STRANGER, STRANGER_ELSEWHERE),
    ),
)
