"""HOSS's rows of the authorization matrix (tests/e2e/test_authorization_matrix.py)."""

from __future__ import annotations

from core.clock import to_db
from services.hoss.battle.battles import NOTICES_TOPIC
from services.hoss.gold import GOLD
from services.infra import ledger
from services.infra.players import ensure_player
from store.connection import Connection
from store.db import announce
from tests.e2e.authorization import (
    AFTER_END,
    OTHER_SERVER,
    STRANGER,
    STRANGER_AFTER_END_ELSEWHERE,
    STRANGER_ELSEWHERE,
    Row,
    Scene,
    World,
    click,
    command,
    id_in,
)
from tests.e2e.hoss.helpers import arena_pair, hoss, start_rank_1, with_deck
from tests.support.harness import here


async def hoss_battle(w: World) -> Scene:
    alice = w.user("alice")
    await with_deck(w.h, alice)
    public = await start_rank_1(w.h, alice)
    ranked = hoss(w.h).ranked
    battle = await ranked.current(alice.id)
    assert battle is not None
    view = await ranked.view(alice.id, battle, here(w.h))

    async def end(w: World) -> None:
        await ranked.skip_to_end(alice.id, battle, here(w.h))

    return Scene({"battle": battle, "pause": view.pause, "message": public.id}, "alice", end=end)


async def hoss_arena_battle(w: World) -> Scene:
    """Alice's live Arena attack against Bob's defence deck."""
    alice, _ = await arena_pair(w.h)
    attacked = await w.h.emu.run_command(alice, "hoss arène attaquer", channel=w.here)
    assert attacked.message is not None
    battle = id_in(attacked.message, f"hoss:aquit:{alice.id}:")

    async def end(w: World) -> None:
        await hoss(w.h).arena.forfeit(alice.id, battle, here(w.h))

    return Scene({"battle": battle}, "alice", end=end)


async def hoss_deck(w: World) -> Scene:
    """Alice's active deck in slot 1: the deck a lab plays."""
    alice = w.user("alice")
    await with_deck(w.h, alice)
    return Scene({"slot": 1}, "alice")


async def hoss_collection(w: World) -> Scene:
    """A booster bought and flipped, and a milestone notice waiting for its OK."""
    alice = w.user("alice")
    assert w.h.bot is not None
    services = w.h.bot.services
    now = services.clock.now()

    def grant(conn: Connection) -> int:
        ensure_player(conn, alice.id, now, services.registry)
        ledger.credit(conn, now, alice.id, GOLD, 100_000, ledger.Movement("test.grant"))
        announce(conn, NOTICES_TOPIC)  # as the battle's end does: the bot forgets who had no notice
        return int(
            conn.execute(
                "INSERT INTO hoss_notices (player_id, kind, rank, wins, gold, created_at)"
                " VALUES (?, 'milestone', 1, 100, 100, ?) RETURNING id",
                (alice.id, to_db(now)),
            ).fetchone()[0]
        )

    notice = await services.db.write(grant)
    await w.h.emu.run_command(alice, "hoss booster", channel=w.here)
    opening = (await hoss(w.h).shop.unopened(alice.id))[0]
    copy = (await hoss(w.h).shop.flip(alice.id, opening.id)).opening.cards[0].copy_id
    assert copy is not None
    await w.h.emu.run_command(alice, "hoss vendre doublons", channel=w.here)
    await w.h.settle()
    return Scene({"opening": opening.id, "copy": copy, "notice": notice, "alice": alice.id}, "alice")


async def hoss_or_pull(w: World) -> Scene:
    """`hoss_collection`, its flipped copy made an Or: alice could show it off."""
    scene = await hoss_collection(w)
    assert w.h.bot is not None
    attrs = '{"rarity": "or", "stars": 0, "holo": false}'
    copy = scene.ids["copy"]
    await w.h.bot.services.db.write(
        lambda conn: conn.execute("UPDATE cards SET attrs = ? WHERE id = ?", (attrs, copy))
    )
    return scene


ROWS = (
    # HOSS ranked battles (one player against the AI)
    Row("hoss Décider", hoss_battle, click("hoss:rdecide:{me}:{battle}:{pause}"), (STRANGER, OTHER_SERVER)),
    Row("hoss Passer à la fin", hoss_battle, click("hoss:rskip:{me}:{battle}"), (STRANGER, OTHER_SERVER)),
    Row(
        "hoss action select",
        hoss_battle,
        click("hoss:ract:{me}:{battle}:{pause}:{message}:0", ["0:00000000"]),
        (STRANGER, OTHER_SERVER, AFTER_END),
    ),
    Row(
        "hoss Passer",
        hoss_battle,
        click("hoss:rpass:{me}:{battle}:{pause}:{message}"),
        (STRANGER, OTHER_SERVER, AFTER_END),
    ),
    Row(
        "hoss Défenseur",
        hoss_battle,
        click("hoss:rdef:{me}:{battle}:{pause}:{message}"),
        (STRANGER, OTHER_SERVER, AFTER_END),
    ),
    Row(
        "hoss Défenseur select",
        hoss_battle,
        click("hoss:rmove:{me}:{battle}:{pause}:{message}", ["a5 a1"]),
        (STRANGER, OTHER_SERVER, AFTER_END),
    ),
    Row(
        "hoss Défenseur (message)",
        hoss_battle,
        click("hoss:rguard:{me}:{battle}"),
        (STRANGER, OTHER_SERVER, AFTER_END),
    ),
    Row(
        "hoss Défenseur select (message)",
        hoss_battle,
        click("hoss:rguardmove:{me}:{battle}", ["a5 a1"]),
        (STRANGER, OTHER_SERVER, AFTER_END),
    ),
    Row(
        "hoss Abandonner (Arena)",
        hoss_arena_battle,
        click("hoss:aquit:{me}:{battle}"),
        (STRANGER, OTHER_SERVER, AFTER_END),
    ),
    Row("/hoss battle", hoss_battle, command("hoss battle", battle="{battle}"), (STRANGER, OTHER_SERVER)),
    Row(
        "/hoss replay",
        hoss_battle,
        command("hoss replay", id="{battle}"),
        (STRANGER, OTHER_SERVER, STRANGER_AFTER_END_ELSEWHERE),
    ),
    Row(
        "hoss replay select",
        hoss_battle,
        click("hoss:replaypick:{me}", ["{battle}"]),
        (STRANGER, OTHER_SERVER, STRANGER_AFTER_END_ELSEWHERE),
    ),
    # The lab plays the actor's own deck: a stranger naming alice's slot reaches their own, empty one
    Row("/hoss labo", hoss_deck, command("hoss lab", slot="{slot}"), (STRANGER,)),
    # HOSS boosters, copies, quotes, fusion, notices (the player's own things)
    Row("hoss flip", hoss_collection, click("hoss:flip:{opening}:1"), (STRANGER,)),
    Row("hoss flip all", hoss_collection, click("hoss:flipall:{opening}"), (STRANGER,)),
    Row("hoss sell from booster", hoss_collection, click("hoss:sellcard:{opening}", ["0"]), (STRANGER,)),
    Row("hoss confirm booster sale", hoss_collection, click("hoss:sellok:{opening}:0"), (STRANGER,)),
    Row("hoss keep booster card", hoss_collection, click("hoss:sellno:{opening}"), (STRANGER,)),
    Row("hoss copy detail", hoss_collection, click("hoss:detail:{me}", ["{copy}"]), (STRANGER,)),
    Row("hoss Montrer", hoss_or_pull, click("showoff:hoss:{copy}"), (STRANGER, STRANGER_ELSEWHERE)),
    Row("/hoss sell card", hoss_collection, command("hoss sell card", copy="{copy}"), (STRANGER,)),
    Row(
        "hoss confirm sale quote",
        hoss_collection,
        click("hoss:sellq:{alice}:1:-------:1:0000000000"),
        (STRANGER,),
    ),
    Row(
        "hoss confirm fusion",
        hoss_collection,
        click("hoss:fuse:{alice}:sq_guerrier_r1:a:0:0000000000"),
        (STRANGER,),
    ),
    Row("hoss notice OK", hoss_collection, click("hoss:notice:{me}:{notice}"), (STRANGER,)),
)
