"""What a trade's « Confirmer » costs (issue 39): the window it answers with is drawn in the confirmation's
write unit, so the button reads nothing after it, and shows what a read of the window would; the unit
reads the parties' languages once, and no copies of a giver who saved no deck."""

from __future__ import annotations

import pytest

from discord_app.render import to_discord
from sandbox.harness import BotHarness
from tests.e2e.trades.authorization import GAME, members_for_long, mint
from tests.support.reads import reads_named
from tests.support.statements import trace_writes


def trade_reads(harness: BotHarness, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The reads the trade service makes, by the read unit's name."""
    return reads_named(harness, monkeypatch, "TradeService.")


async def test_confirming_reads_nothing_after_its_write_and_answers_the_window_a_read_finds(
    harness: BotHarness, monkeypatch: pytest.MonkeyPatch
) -> None:
    h = harness
    alice, bob = h.user("alice"), h.user("bob", locale="en-US")
    members_for_long(h, alice, bob)
    (mine,), (gift,) = await mint(h, alice), await mint(h, alice)
    await h.emu.run_command(bob, "profile")  # the bot learns bob's language
    await h.emu.run_command(alice, "échange avec", {"joueur": bob, "jeu": GAME})
    offered = await h.emu.run_command(alice, "échange carte", {"échange": 1, "carte": f"#{mine}"})
    ready = await h.emu.run_command(alice, "cadeau", {"joueur": bob, "jeu": GAME, "carte": f"#{gift}"})
    await h.settle()
    assert h.bot is not None
    assert h.guild is not None
    trades = h.bot.services.trades
    reads = trade_reads(h, monkeypatch)

    half = await h.emu.click(alice, "Confirmer", message=offered.message)  # the trade stays open
    given = await h.emu.click(alice, "Confirmer", message=ready.message)  # the gift is sent
    assert reads == []
    assert "conclu" in given.message.render()  # type: ignore[union-attr]
    for number, reply in ((1, half), (2, given)):
        trade = await trades.show(h.guild.id, number, alice.id)
        shown = to_discord(await trades.window(trade, alice.id), "fr")
        assert reply.message is not None
        assert reply.message.embeds[0] == shown["embeds"][0].to_dict()


@pytest.mark.sqlite_only("the unit's statements seen by SQLite's trace callback")
async def test_a_gift_confirmed_reads_the_parties_languages_once_and_no_copies_without_a_saved_deck(
    harness: BotHarness, monkeypatch: pytest.MonkeyPatch
) -> None:
    h = harness
    alice, bob = h.user("alice"), h.user("bob", locale="en-US")
    members_for_long(h, alice, bob)
    (gift,) = await mint(h, alice)
    await h.emu.run_command(bob, "profile")  # the bot learns bob's language
    ready = await h.emu.run_command(alice, "cadeau", {"joueur": bob, "jeu": GAME, "carte": f"#{gift}"})
    await h.settle()
    assert h.bot is not None
    statements = trace_writes(h.bot.services.db, monkeypatch)

    given = await h.emu.click(alice, "Confirmer", message=ready.message)
    await h.settle()
    assert "conclu" in given.message.render()  # type: ignore[union-attr]
    languages = [s for s in statements if "COALESCE(locale, last_locale) FROM players" in s]
    assert len(languages) == 1  # four before: each DM's, the parties', the window's
    assert not [s for s in statements if "FROM cards WHERE owner_id" in s]  # alice saved no Pillz deck
