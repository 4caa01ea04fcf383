"""Hostile inputs: every refusal is private, localized, within Discord's limits, and changes nothing."""

from __future__ import annotations

import json
import logging
from pathlib import Path

import pytest
from discord import AppCommandOptionType, app_commands

from discord_app.bot import RecentIds
from discord_app.errors import fit
from discord_app.option_checks import MAX_ID
from discord_app.refusals import echo
from discord_app.render import text
from sandbox.harness import BotHarness
from services.infra.messages import Text
from services.shared.collecting import owned_counts
from services.shared.render.problems import listing
from tests.e2e.hostile import (
    assert_private_and_fits,
    send_raw,
    send_unknown_command,
    state_of,
)

pytestmark = pytest.mark.sweep

BEYOND_SQLITE = 2**63
BEYOND_DISCORD = 2**53 + 1


async def test_a_refusal_naming_many_unknown_lines_fits_in_one_message(harness: BotHarness) -> None:
    alice = harness.user("alice")
    lines = ",".join(f"inconnue{i:04d}" for i in range(90))[:1000]
    options = {"slot": 1, "name": "Test", "lines": lines, "buffs": "x"}
    reply = await harness.emu.run_command(alice, "hoss deck save", options)
    shown = assert_private_and_fits(reply)
    assert "inconnue0000" in shown
    assert "de plus." in shown
    assert "lignes de plus" not in shown


async def test_a_refusal_quotes_a_long_unknown_name_short(harness: BotHarness) -> None:
    alice = harness.user("alice")
    options = {"slot": 1, "name": "Test", "lines": "z" * 1000, "buffs": "y" * 200}
    shown = assert_private_and_fits(await harness.emu.run_command(alice, "hoss deck save", options))
    assert "z" * 99 + "…" in shown
    assert "z" * 100 not in shown
    assert "y" * 99 + "…" in shown
    assert "y" * 100 not in shown


async def test_a_one_line_refusal_echoing_a_huge_value_is_cut(harness: BotHarness) -> None:
    alice = harness.user("alice")
    reply = await send_raw(harness, alice, "choco absence", {"duration": "9" * 6000, "reason": "r"})
    shown = assert_private_and_fits(reply)
    assert "9" * 20 in shown


@pytest.mark.parametrize(
    ("path", "values"),
    [
        ("hoss replay", {"id": BEYOND_SQLITE}),
        ("hoss battle", {"battle": BEYOND_SQLITE}),
        ("hoss sell card", {"copy": BEYOND_SQLITE}),
        ("choco referee-log", {"game": BEYOND_SQLITE}),
        ("choco referee-extend", {"hours": 5, "game": -BEYOND_SQLITE}),
        ("hoss replay", {"id": BEYOND_DISCORD}),
    ],
)
async def test_ids_beyond_the_bounds_are_refused(
    harness: BotHarness, path: str, values: dict[str, int]
) -> None:
    alice = harness.user("olivia")
    await harness.emu.run_command(alice, "profile")
    before = state_of(harness.db_path)
    shown = assert_private_and_fits(await send_raw(harness, alice, path, values))
    assert "n'est pas valable" in shown
    assert state_of(harness.db_path) == before


@pytest.mark.parametrize(
    ("path", "values", "expected"),
    [
        ("hoss fuse", {"card": "x", "stars": 9}, "entre 0 et 4"),
        ("settings language", {"language": "klingon"}, "klingon"),
        ("hoss collection", {"rank": 7}, "7"),
        ("hoss booster", {"kind": "gratuit"}, "gratuit"),
        ("setup deadline", {"preset": "instant"}, "instant"),
        ("setup drops", {"rhythm": "torrent"}, "torrent"),
        ("choco deck", {"league": "diamant"}, "diamant"),
    ],
)
async def test_a_value_outside_the_choices_is_refused(
    harness: BotHarness, path: str, values: dict[str, object], expected: str
) -> None:
    olivia = harness.user("olivia")
    await harness.emu.run_command(olivia, "profile")
    before = state_of(harness.db_path)
    shown = assert_private_and_fits(await send_raw(harness, olivia, path, values))
    assert expected in shown
    assert state_of(harness.db_path) == before


@pytest.mark.parametrize(
    ("path", "values", "types"),
    [
        ("hoss booster", {"count": "beaucoup"}, {}),
        ("hoss booster", {"count": 2.5}, {}),
        ("hoss booster", {"count": True}, {}),
        ("choco play", {"actions": 12}, {}),
        ("hoss collection", {"holo": "oui"}, {}),
        ("profile", {"player": "not-a-snowflake"}, {}),
        ("profile", {"player": "123456"}, {}),  # a user Discord did not resolve
        ("hoss booster", {"count": "3"}, {"count": 3}),  # a number sent as a string
    ],
)
async def test_a_value_of_the_wrong_type_is_refused(
    harness: BotHarness, path: str, values: dict[str, object], types: dict[str, int]
) -> None:
    alice = harness.user("alice")
    await harness.emu.run_command(alice, "profile")
    before = state_of(harness.db_path)
    shown = assert_private_and_fits(await send_raw(harness, alice, path, values, types=types))
    assert "n'est pas valable" in shown
    assert state_of(harness.db_path) == before


async def test_a_missing_required_option_is_refused(harness: BotHarness) -> None:
    alice = harness.user("alice")
    shown = assert_private_and_fits(await send_raw(harness, alice, "choco play", {}))
    assert "obligatoire" in shown


@pytest.mark.parametrize("name", ["ancienne", "hoss"])  # a group without its subcommand is no command either
async def test_a_command_the_bot_no_longer_has_is_refused_privately(harness: BotHarness, name: str) -> None:
    shown = assert_private_and_fits(await send_unknown_command(harness, harness.user("alice"), name))
    assert "n'existe plus" in shown


async def test_a_redelivered_interaction_runs_once_and_logs_nothing(
    harness: BotHarness, caplog: pytest.LogCaptureFixture
) -> None:
    alice = harness.user("alice")
    first = await harness.emu.run_command(alice, "hoss booster")
    assert first.message is not None
    await harness.settle()  # the first /hoss command's welcome, a follow-up, is counted too
    after_once = state_of(harness.db_path)
    messages = len(harness.emu.records.messages)
    with caplog.at_level(logging.WARNING):
        await harness.emu.gateway.dispatch("INTERACTION_CREATE", first.interaction.payload)
        await harness.settle()
    assert state_of(harness.db_path) == after_once
    assert len(harness.emu.records.messages) == messages
    assert [r for r in caplog.records if r.levelno >= logging.WARNING] == []


@pytest.mark.parametrize(
    "custom_id",
    [
        f"outbox:show:{BEYOND_SQLITE}",
        f"hoss:flip:{'9' * 40}:1",
        "hoss:flipall:١٢",
        f"drops:take:{BEYOND_SQLITE}",
        "drops:verify:١٢",
    ],
)
async def test_a_component_number_beyond_the_bounds_is_refused(harness: BotHarness, custom_id: str) -> None:
    alice = harness.user("alice")
    reply = await harness.emu.run_command(alice, "hoss booster")
    assert reply.message is not None
    await harness.settle()  # the booster's welcome is recorded after its reply
    before = state_of(harness.db_path)
    shown = assert_private_and_fits(await harness.emu.forge_component(alice, custom_id))
    assert "n'est pas valable" in shown
    assert state_of(harness.db_path) == before


async def test_every_number_option_declares_its_bounds(harness: BotHarness) -> None:
    """Discord's client then refuses an id beyond them before sending it; the bot's own check is the net."""
    assert harness.bot is not None
    unbounded = [
        f"{command.qualified_name} {param.name}"
        for command in harness.bot.tree.walk_commands()
        if isinstance(command, app_commands.Command)
        for param in command.parameters
        if param.type in (AppCommandOptionType.integer, AppCommandOptionType.number)
        and not param.choices
        and (param.min_value is None or param.max_value is None or param.max_value > MAX_ID)
    ]
    assert unbounded == []


def test_a_long_refusal_is_cut_on_a_line_boundary_and_counts_the_rest() -> None:
    lines = [f"• ligne {i:03d} " + "x" * 40 for i in range(100)]
    cut = fit("\n".join(lines), "fr")
    assert len(cut) <= 2000
    kept = cut.split("\n")
    assert kept[:-1] == lines[: len(kept) - 1]
    assert kept[-1] == f"… et {100 - (len(kept) - 1)} lignes de plus."
    assert fit("court", "en") == "court"
    one_line = fit("9" * 6000, "en")
    assert len(one_line) <= 2000
    assert one_line.endswith("…")


def test_a_refusal_names_a_few_items_and_counts_the_others() -> None:
    items = [Text.raw(f"item {i}") for i in range(25)]
    assert text(listing(items), "en").split("\n") == [*(f"item {i}" for i in range(10)), "… and 15 more."]
    assert text(listing(items[:2]), "fr") == "item 0\nitem 1"
    assert echo("a\nb" + "c" * 200) == "a b" + "c" * 56 + "…"


def test_recent_interaction_ids_are_bounded() -> None:
    recent = RecentIds(3)
    assert [recent.seen(i) for i in (1, 2, 1, 3, 4)] == [False, False, True, False, False]
    assert recent.seen(1) is False  # the oldest was forgotten once a fourth came


def _catalog_ids(game: str, count: int, skip: frozenset[str]) -> str:
    cards = json.loads((Path("data") / f"{game}.json").read_text(encoding="utf-8"))["cards"]
    return ", ".join([str(card["id"]) for card in cards if str(card["id"]) not in skip][:count])


@pytest.mark.parametrize(
    ("game", "first", "path", "values", "field", "count"),
    [
        ("choco", "choco collection", "choco deck", {"league": "bronze"}, "cards", 40),
        ("pillz", "pillz collection", "pillz deck", {"slot": 1}, "characters", 12),
    ],
)
async def test_a_deck_refusal_names_the_first_reasons_and_counts_the_others(
    harness: BotHarness,
    game: str,
    first: str,
    path: str,
    values: dict[str, object],
    field: str,
    count: int,
) -> None:
    """Cards the player does not own (none of their random starting cards), one reason each: ten of them
    named, the rest counted."""
    assert harness.bot is not None
    alice = harness.user("alice")
    await harness.emu.run_command(alice, first)  # the player's first call of the game: its starting cards
    owned = await harness.bot.services.db.read(lambda conn: owned_counts(conn, alice.id, game))
    chosen = values | {field: _catalog_ids(game, count, frozenset(owned))}
    shown = assert_private_and_fits(await harness.emu.run_command(alice, path, chosen))
    assert "de plus." in shown
    assert "lignes de plus" not in shown


@pytest.mark.parametrize(
    ("path", "values", "expected"),
    [
        ("wishlist add", {"card": "<@1> @everyone " + "x" * 80}, "Aucune carte ne s'appelle"),
        ("wishlist remove", {"card": "hoss:" + "9" * 90}, "Aucune carte ne s'appelle"),
        ("wishlist add", {"card": "choco:"}, "Aucune carte ne s'appelle"),
        ("setup drops", {"rhythm": "normal", "games": "Uno, " + "z" * 190}, "Jeu inconnu"),
        ("setup drops", {"rhythm": "normal", "games": ",,,@everyone"}, "Jeu inconnu"),
    ],
)
async def test_a_card_or_game_nobody_has_is_refused_privately_and_changes_nothing(
    harness: BotHarness, path: str, values: dict[str, object], expected: str
) -> None:
    olivia = harness.user("olivia")
    await harness.emu.run_command(olivia, "profile")
    await harness.settle()
    before = state_of(harness.db_path)
    shown = assert_private_and_fits(await send_raw(harness, olivia, path, values))
    assert expected in shown
    assert "z" * 60 not in shown  # a long name is quoted short
    assert state_of(harness.db_path) == before
