"""The trades' rows of the authorization matrix (tests/e2e/test_authorization_matrix.py): every command
and button naming a trade, tried by a stranger, by a party from another server, by a stranger or an
admin of another server, and after the trade ended. A party acting from DMs is allowed (the window's DMs
carry the buttons): tests/e2e/trades/test_trades.py."""

from __future__ import annotations

from datetime import timedelta

from emulator.world import User
from sandbox.harness import BotHarness
from services.infra import ledger
from services.infra.players import ensure_player
from store.connection import Connection
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

GAME = "pillz"


def members_for_long(h: BotHarness, *users: User) -> None:
    """Members of the bot's server for 30 days: old enough to trade (docs/trades.md)."""
    assert h.guild is not None
    for user in users:
        h.emu.world.set_joined(user, h.guild, h.clock.now() - timedelta(days=30))


async def mint(h: BotHarness, owner: User, count: int = 1) -> list[int]:
    """Copies of the game's first card for `owner`, as a reward would give them."""
    assert h.bot is not None
    services = h.bot.services
    catalog = services.cards.catalog(GAME)
    assert catalog is not None
    now = services.clock.now()

    def unit(conn: Connection) -> list[int]:
        why = ledger.Movement("test")
        ensure_player(conn, owner.id, now, services.registry)
        return [ledger.mint_card(conn, now, owner.id, GAME, catalog.cards[0].id, why) for _ in range(count)]

    return await services.db.write(unit)


async def open_trade(w: World) -> Scene:
    """alice opened a trade with bob and offered a copy; bob offered a second copy of his."""
    alice, bob = w.user("alice"), w.user("bob")
    members_for_long(w.h, alice, bob)
    (mine,), (theirs,) = await mint(w.h, alice), await mint(w.h, bob)
    made = await w.h.emu.run_command(alice, "échange avec", {"joueur": bob, "jeu": GAME}, channel=w.here)
    assert made.message is not None
    assert "Échange n°" in made.message.render(), made.message.render()
    trade = int(made.message.render().split("n° ")[1].split(" ")[0])
    await w.h.emu.run_command(alice, "échange carte", {"échange": trade, "carte": str(mine)}, channel=w.here)
    await w.h.settle()

    async def end(w: World) -> None:
        await w.h.emu.run_command(bob, "échange annuler", {"échange": trade}, channel=w.here)
        await w.h.settle()

    return Scene({"trade": trade, "version": 1, "mine": mine, "theirs": theirs}, "alice", "bob", end=end)


ELSEWHERE = (STRANGER, OTHER_SERVER, STRANGER_ELSEWHERE)
ROWS = (
    Row(
        "/trade card",
        open_trade,
        command("échange carte", échange="{trade}", carte="#{theirs}"),
        (*ELSEWHERE, AFTER_END),
    ),
    Row(
        "/trade remove",
        open_trade,
        command("échange retirer", échange="{trade}", exemplaire="{mine}"),
        (*ELSEWHERE, AFTER_END),
    ),
    Row(
        "/trade money",
        open_trade,
        command("échange monnaie", échange="{trade}", montant="5"),
        (*ELSEWHERE, AFTER_END),
    ),
    Row("/trade show", open_trade, command("échange voir", échange="{trade}"), (*ELSEWHERE, ADMIN_ELSEWHERE)),
    Row(
        "/trade cancel",
        open_trade,
        command("échange annuler", échange="{trade}"),
        (*ELSEWHERE, ADMIN_ELSEWHERE, AFTER_END),
    ),
    Row("trade Confirm", open_trade, click("trade:confirm:{trade}:{version}"), (*ELSEWHERE, AFTER_END)),
    Row("trade Cancel", open_trade, click("trade:cancel:{trade}"), (*ELSEWHERE, ADMIN_ELSEWHERE, AFTER_END)),
)
