"""Shared set-up for the HOSS end-to-end tests: the services, copies minted through the ledger, a valid
active deck, a Rang 1 battle started and decided, the gold and the ledger read back, two players
registered in the Arena, and the discord.py items a reply builds counted."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Any

import discord
import pytest

from emulator.records import RecordedMessage
from emulator.world import User
from engine.hoss.catalog import CreatureCard
from sandbox.fixtures.hoss import arena_veteran as veteran
from sandbox.harness import BotHarness
from services.hoss import HossServices
from services.hoss.gold import GOLD
from services.hoss.shop import OpeningCard
from services.infra import ledger
from services.infra.players import ensure_player
from store.connection import Connection
from tests.e2e.messages import shown

GRANT = ledger.Movement("test.grant")
# Six lines (two Défenseurs) and two buffs of the real catalog: a valid deck once owned.
LINES = ["sq_guerrier", "orc_mage", "syl_archer", "hum_cavalier", "sq_defenseur", "orc_defenseur"]
BUFFS = ["buff_soins", "buff_vitesse"]


def hoss(h: BotHarness) -> HossServices:
    assert h.bot is not None
    services: HossServices = h.bot.services.games["hoss"]
    return services


async def with_deck(h: BotHarness, user: User) -> None:
    """The Rang 1 of six lines and two buffs, minted through the ledger, saved as the active deck."""
    assert h.bot is not None
    services = h.bot.services
    now = services.clock.now()
    decks = hoss(h).decks
    keys = [
        c.id for c in decks.catalog.cards if isinstance(c, CreatureCard) and c.line in LINES and c.rank == 1
    ]

    def unit(conn: Connection) -> None:
        ensure_player(conn, user.id, now, services.registry)
        for card in [*keys, *BUFFS]:
            ledger.mint_card(
                conn, now, user.id, "hoss", card, GRANT, {"rarity": "basique", "stars": 0, "holo": False}
            )

    await services.db.write(unit)
    await decks.save(user.id, 1, "deck", LINES, BUFFS)
    await decks.set_active(user.id, 1)


async def gold(h: BotHarness, user: User) -> int:
    assert h.bot is not None
    return await h.bot.services.db.read(lambda conn: ledger.balance(conn, user.id, GOLD))


def battle_message(h: BotHarness) -> RecordedMessage:
    found = [m for m in h.emu.messages if not m.ephemeral and "Combat classé n°" in shown(m)]
    assert len(found) >= 1
    return found[-1]


async def decide_once(h: BotHarness, user: User) -> str:
    """Open the private controls and take the first offered action (or pass)."""
    controls = await h.emu.click(user, "Décider")
    message = controls.message
    assert message is not None
    assert message.ephemeral
    if message.select_options:
        chosen = message.select_options[0]
        await h.emu.select(user, chosen, message=message)
    else:
        chosen = "Passer"
        await h.emu.click(user, chosen, message=message)
    await h.settle()  # the battle message is edited once the private controls answered
    return chosen


async def start_rank_1(h: BotHarness, user: User) -> RecordedMessage:
    ladder = await h.emu.run_command(user, "hoss rang")
    assert ladder.message is not None
    assert ladder.message.ephemeral
    started = await h.emu.click(user, "Combattre — Rang 1")
    assert started.message is not None
    assert not started.message.ephemeral
    return started.message


async def ledger_rows(h: BotHarness, user: User) -> list[tuple[str, int]]:
    assert h.bot is not None
    return await h.bot.services.db.read(
        lambda conn: [
            (str(r[0]), int(r[1]))
            for r in conn.execute(
                "SELECT reason, delta FROM ledger WHERE player_id = ? AND currency IS NOT NULL", (user.id,)
            )
        ]
    )


async def give(
    h: BotHarness, user: User, card: str, rarity: str = "basique", stars: int = 0, holo: bool = False
) -> int:
    assert h.bot is not None
    services = h.bot.services
    now = services.clock.now()
    attrs = {"rarity": rarity, "stars": stars, "holo": holo}

    def unit(conn: Connection) -> int:
        ensure_player(conn, user.id, now, services.registry)
        return ledger.mint_card(conn, now, user.id, "hoss", card, GRANT, attrs)

    return await services.db.write(unit)


def text(result: Any) -> str:
    """The message as rendered, with French narrow no-break spaces (25 000) as plain spaces."""
    return str(result.message.render()).replace("\u202f", " ")


async def arena_veteran(h: BotHarness, user: User, *, ranks: int = 3) -> None:
    """The sandbox's Arena veteran (sandbox/fixtures/hoss.py): Rang 5 and two decks in slots 1 and 2."""
    assert h.bot is not None
    await veteran(h.bot.services, user.id, ranks=ranks)


async def register(h: BotHarness, user: User) -> str:
    reply = await h.emu.run_command(user, "hoss arène inscrire", {"attaque": 1, "défense": 2})
    assert reply.message is not None
    assert reply.message.ephemeral
    return shown(reply.message)


async def arena_pair(h: BotHarness) -> tuple[User, User]:
    """Alice and Bob registered in the harness's server and ranked by the hourly ranking."""
    alice, bob = h.user("alice"), h.user("bob")
    for user in (alice, bob):
        await arena_veteran(h, user)
        await register(h, user)
    await h.advance(timedelta(hours=1))
    return alice, bob


async def booster_with(h: BotHarness, user: User, rarities: dict[int, str]) -> list[OpeningCard]:
    """A booster bought by `user`, the copies at `rarities`' positions made of those rarities and every other
    copy Basique (the draw may have pulled an Or itself), all face down."""
    for line in LINES:
        await give(h, user, f"{line}_1")
    await h.emu.run_command(user, "hoss booster")
    (opening,) = await hoss(h).shop.unopened(user.id)
    slots = list((await hoss(h).shop.opening(user.id, opening.id)).cards)
    assert h.bot is not None
    for position in range(len(slots)):
        rarity = rarities.get(position, "basique")
        attrs = f'{{"rarity": "{rarity}", "stars": 2, "holo": false}}'
        await h.bot.services.db.write(set_rarity(opening.id, position, attrs))
    return slots


def set_rarity(opening: int, position: int, attrs: str) -> Callable[[Connection], None]:
    def unit(conn: Connection) -> None:
        conn.execute(
            "UPDATE cards SET attrs = ? WHERE id ="
            " (SELECT card_id FROM hoss_opening_cards WHERE opening_id = ? AND position = ?)",
            (attrs, opening, position),
        )

    return unit


def count_items(monkeypatch: pytest.MonkeyPatch) -> list[type[Any]]:
    """Every discord.py item built from now on (a button, a select, a DynamicItem around one)."""
    built: list[type[Any]] = []
    init = discord.ui.Item.__init__

    def counted(self: discord.ui.Item[Any], *args: Any, **kwargs: Any) -> None:
        built.append(type(self))
        init(self, *args, **kwargs)

    monkeypatch.setattr(discord.ui.Item, "__init__", counted)
    return built
