"""A sync's translated payloads are built once per process and catalogs (discord_app/translator.py
`translated_payload`): each equals what discord.py's own translation of the command gives, and a second
bot's sync asks the translator nothing."""

from __future__ import annotations

from typing import Any

import discord
import pytest
from discord import app_commands

import core.i18n as i18n
from core.clock import ManualClock
from core.settings import load_settings
from discord_app import translator as translator_module
from discord_app.bot import CardBot, cog_modules
from discord_app.translator import CatalogTranslator, translated_payload


async def loaded_tree() -> app_commands.CommandTree[Any]:
    bot = CardBot(load_settings(require_token=False, env_file=None), ManualClock())
    for module in cog_modules():
        await bot.load_extension(module)
    return bot.tree


class CountingTranslator(CatalogTranslator):
    calls = 0

    async def translate(self, string: Any, locale: discord.Locale, context: Any) -> str | None:
        CountingTranslator.calls += 1
        return await super().translate(string, locale, context)


async def test_each_payload_is_discord_pys_own_and_a_second_bot_asks_the_translator_nothing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(translator_module, "_PAYLOADS", {})
    translator = CountingTranslator()
    first = await loaded_tree()
    commands = first.get_commands()
    assert len(commands) > 10  # the top-level commands and groups
    own = [await command.get_translated_payload(first, translator) for command in commands]
    asked = CountingTranslator.calls
    assert asked > 1000  # every string in every one of Discord's locales
    built = [await translated_payload(first, command, translator) for command in commands]
    assert built == own
    assert any(payload.get("name_localizations") for payload in built)
    second = await loaded_tree()
    CountingTranslator.calls = 0
    again = [await translated_payload(second, command, translator) for command in second.get_commands()]
    assert again == own
    assert CountingTranslator.calls == 0
    again[0]["name"] = "changed by the caller"
    assert (await translated_payload(second, second.get_commands()[0], translator)) == own[0]


async def test_the_payloads_are_built_again_when_the_catalogs_are_loaded_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(translator_module, "_PAYLOADS", {})
    tree = await loaded_tree()
    command = tree.get_commands()[0]
    translator = CountingTranslator()
    await translated_payload(tree, command, translator)
    CountingTranslator.calls = 0
    i18n.catalogs.cache_clear()
    try:
        await translated_payload(tree, command, translator)
        assert CountingTranslator.calls > 0
    finally:
        i18n.catalogs.cache_clear()
