"""A new player's first steps through Discord: the welcome (once, private, in the reader's language),
/help's start page and each game's page (staff commands only for those who may use them), the rules
pages, and card names that match nothing answered with the nearest ones."""

from __future__ import annotations

from sandbox.harness import BotHarness
from tests.e2e.choco.helpers import referee_role
from tests.e2e.messages import after_welcome


def text_of(result: object) -> str:
    return result.message.render()  # type: ignore[attr-defined]


async def test_the_welcome_comes_once_per_game_privately(harness: BotHarness) -> None:
    alice = harness.user("alice")
    await harness.emu.run_command(alice, "pillz collection")
    await harness.emu.run_command(alice, "pillz collection")
    await harness.emu.run_command(alice, "hoss odds")
    await harness.settle()
    shown = [m for m in harness.emu.records.messages if "**Bienvenue dans" in m.render()]
    assert [m.render().split("**")[1] for m in shown] == [
        "Bienvenue dans Pillz duel\u202f!",
        "Bienvenue dans HOSS TCG\u202f!",
    ]
    assert all(m.ephemeral for m in shown)
    assert "`/pillz entraînement`" in shown[0].render()
    assert "**300 or**" in shown[1].render()


async def test_the_welcome_is_in_the_readers_language(harness: BotHarness) -> None:
    bob = harness.user("bob", locale="en-US")
    await harness.emu.run_command(bob, "choco collection")
    await harness.settle()
    (shown,) = [m for m in harness.emu.records.messages if "**Welcome to" in m.render()]
    assert "**1,500 galleons**" in shown.render()
    assert "Next step: `/choco frogs count:10`" in shown.render()


async def test_a_command_outside_the_games_gets_no_welcome(harness: BotHarness) -> None:
    alice = harness.user("alice")
    await harness.emu.run_command(alice, "profile")
    await harness.emu.run_command(alice, "help")
    await harness.settle()
    assert not [m for m in harness.emu.records.messages if "Bienvenue dans" in m.render()]


async def test_help_starts_here_then_shows_a_games_commands_in_order(harness: BotHarness) -> None:
    bob = harness.user("bob", locale="en-US")
    reply = await harness.emu.run_command(bob, "help")
    first = text_of(reply)
    assert "Start here: 1. Pick a game" in first
    assert "/hoss booster" not in first
    page = text_of(await harness.emu.select(bob, "HOSS TCG", message=reply.message))
    order = [
        page.index(c)
        for c in ("`/hoss rules`", "`/hoss booster`", "`/hoss open`", "`/hoss deck auto`", "`/hoss rank`")
    ]
    assert order == sorted(order)
    back = text_of(await harness.emu.select(bob, "Start here", message=reply.message))
    assert "Start here: 1. Pick a game" in back


async def test_referee_commands_show_only_to_those_who_may_referee(harness: BotHarness) -> None:
    alice, rita = harness.user("alice"), harness.user("rita")
    await referee_role(harness, rita)
    pages = {}
    for user in (alice, rita):
        reply = await harness.emu.run_command(user, "help")
        pages[user.name] = text_of(await harness.emu.select(user, "Chocobataille", message=reply.message))
    assert "arbitre-" not in pages["alice"]
    assert "`/choco arbitre-prolonger`" in pages["rita"]
    assert "`/choco défi`" in pages["alice"]


async def test_admin_shows_only_to_the_bots_owners(harness: BotHarness) -> None:
    manager = harness.user("manon", admin=True)  # Manage Server, not an owner of the bot
    text = text_of(await harness.emu.run_command(manager, "help"))
    assert "/configuration délai" in text
    assert "/admin" not in text
    assert "/admin synchroniser" in text_of(await harness.emu.run_command(harness.user("olivia"), "help"))


async def test_the_rules_turn_page_by_page_in_the_readers_language(harness: BotHarness) -> None:
    bob = harness.user("bob", locale="en-US")
    first = await harness.emu.run_command(bob, "pillz rules")
    assert "The duel (1/3)" in text_of(first)
    assert first.message is not None
    assert first.message.ephemeral
    second = await harness.emu.click(bob, "Next ▶", message=first.message)
    assert "Attack and pillz (2/3)" in text_of(second)
    assert "Page 2/3 · Pillz duel: each card's text with `/card`" in text_of(second)
    third = await harness.emu.click(bob, "Next ▶", message=first.message)
    assert "(3/3)" in text_of(third)
    back = await harness.emu.click(bob, "◀ Previous", message=first.message)
    assert "(2/3)" in text_of(back)


async def test_an_unknown_card_name_gets_the_nearest_names(harness: BotHarness) -> None:
    bob = harness.user("bob", locale="en-US")
    text = text_of(await harness.emu.run_command(bob, "card", {"name": "Barnaby Toat"}))
    assert text == 'No card is called "Barnaby Toat". Did you mean: Barnaby Toad?'
    text = text_of(await harness.emu.run_command(bob, "card", {"name": "qqqqzzzz"}))
    assert text == 'No card is called "qqqqzzzz". Pick a name from the suggestions.'


async def test_a_deck_naming_an_unknown_card_gets_the_nearest_names(harness: BotHarness) -> None:
    alice = harness.user("alice")
    options = {"slot": 2, "characters": "Porteur de baniere, Lancier yari"}
    text = after_welcome(text_of(await harness.emu.run_command(alice, "pillz deck", options)))
    assert text.startswith(
        "Personnage inconnu\u00a0: «\u00a0Porteur de baniere\u00a0». Vouliez-vous dire\u00a0: Porteur de bannière"
    )


async def test_a_ranked_battle_without_a_deck_says_how_to_build_one(harness: BotHarness) -> None:
    alice = harness.user("alice")
    text = text_of(await harness.emu.run_command(alice, "hoss rank", {"rank": 1}))
    assert "`/hoss deck auto`" in text
    text = text_of(await harness.emu.run_command(alice, "hoss deck auto"))
    assert "Vos cartes ne font pas encore de deck" in text
    assert "vous avez 0 créature et 0 buff" in text
