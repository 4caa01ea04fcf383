"""« Voir une carte » under every game's collection page: one entry opens privately with its picture and
its text (the game's fields, the copies owned or the copy's level), for the collection's owner only. HOSS
keeps its own select of copies (`hoss:detail`), which now shows the copy's picture too."""

from __future__ import annotations

import pytest

from emulator.records import RecordedMessage
from emulator.world import User
from sandbox.harness import BotHarness
from services.infra import ledger
from services.infra.players import ensure_player
from store.connection import Connection

GRANT = ledger.Movement("test.grant")
CHOCO_CARD = "aglae_pommeverte"


async def mint(h: BotHarness, user: User, game: str, card: str, copies: int = 1) -> int:
    assert h.bot is not None
    services = h.bot.services
    now = services.clock.now()

    def unit(conn: Connection) -> int:
        ensure_player(conn, user.id, now, services.registry)
        return max(ledger.mint_card(conn, now, user.id, game, card, GRANT, {}) for _ in range(copies))

    return await services.db.write(unit)


def select_of(message: RecordedMessage) -> dict[str, object]:
    found = [c for c in message.all_components() if str(c.get("custom_id", "")).startswith("entry:")]
    assert len(found) == 1, message.render()
    return found[0]


async def open_first(h: BotHarness, user: User, command: str) -> tuple[RecordedMessage, RecordedMessage]:
    page = await h.emu.run_command(user, command)
    assert page.message is not None
    assert page.message.ephemeral_to == user
    select = select_of(page.message)
    assert str(select["custom_id"]).endswith(f":{user.id}")
    options = select["options"]
    assert isinstance(options, list)
    assert options
    first = options[0]
    assert isinstance(first, dict)
    opened = await h.emu.select(user, values=[str(first["value"])], message=page.message)
    assert opened.message is not None
    return page.message, opened.message


@pytest.mark.parametrize(
    ("command", "game"),
    [
        ("choco collection", "choco"),
        ("pillz collection", "pillz"),
        ("dino collection", "dinocard"),
        ("immortels collection", "immortals"),
    ],
)
async def test_an_entry_opens_privately_with_its_picture(
    harness: BotHarness, command: str, game: str
) -> None:
    alice = harness.user("alice")
    if game == "choco":
        await mint(harness, alice, "choco", CHOCO_CARD, copies=2)
    _page, opened = await open_first(harness, alice, command)
    assert opened.ephemeral_to == alice
    (picture,) = opened.attachments
    assert picture.filename.startswith(f"{game}-")
    assert picture.filename.endswith(".png")
    assert picture.data.startswith(b"\x89PNG")
    (embed,) = opened.embeds
    assert embed["image"]["url"] == f"attachment://{picture.filename}"
    text = opened.render()
    if game == "immortals":
        assert " niveau 1 · " in text
        assert " XP" in text
    else:
        assert "Exemplaires possédés\u00a0:" in text
    if game == "choco":
        assert "Exemplaires possédés\u00a0: 2" in text


async def test_nobody_else_opens_an_entry(harness: BotHarness) -> None:
    alice, carol = harness.user("alice"), harness.user("carol")
    await mint(harness, alice, "choco", CHOCO_CARD)
    _page, _opened = await open_first(harness, alice, "choco collection")
    # carol clicking alice's select, or forging one in her own name for alice's card: refused, no file
    for custom_id in (f"entry:choco:{alice.id}", f"entry:choco:{carol.id}"):
        tried = await harness.emu.forge_component(carol, custom_id, values=[CHOCO_CARD])
        assert tried.message is not None
        assert tried.message.ephemeral_to == carol
        assert tried.message.attachments == []
        assert "Aglaé" not in tried.message.render()


async def test_a_hoss_copy_detail_shows_the_copy_picture(harness: BotHarness) -> None:
    alice = harness.user("alice")
    copy = await mint(harness, alice, "hoss", "sq_guerrier_1")
    page = await harness.emu.run_command(alice, "hoss collection")
    assert page.message is not None
    opened = await harness.emu.select(alice, values=[str(copy)], message=page.message)
    assert opened.message is not None
    assert opened.message.ephemeral_to == alice
    (picture,) = opened.message.attachments
    assert picture.filename == "hoss-sq_guerrier_1.png"
    assert opened.message.embeds[0]["image"]["url"] == "attachment://hoss-sq_guerrier_1.png"
