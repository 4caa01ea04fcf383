"""Slash command names, descriptions, options and choices, localized from the same catalogs as messages.

Keys derive from where a string sits, so a command needs no explicit key:
`cmd.<qualified.name>.name`, `cmd.<qualified.name>.description`,
`cmd.<qualified.name>.opt.<option>.name|description`, and `choice.<group>.<value>` for choices
(declared with `choice(...)` below). Code names are English; French is a localization, and the
unlocalized descriptions Discord shows other languages are the French ones (French first).
"""

from __future__ import annotations

from typing import Any

import discord
import orjson
from discord import app_commands
from discord.app_commands import TranslationContextLocation as Where

from core.i18n import catalogs, t
from services.infra.messages import Text

DISCORD_LOCALES: dict[discord.Locale, str] = {
    discord.Locale.french: "fr",
    discord.Locale.american_english: "en",
    discord.Locale.british_english: "en",
}


def qualified(command: Any) -> str:
    return str(command.qualified_name).replace(" ", ".")


def key_for(
    string: app_commands.locale_str, context: app_commands.TranslationContext[Any, Any]
) -> str | None:
    explicit = string.extras.get("key")
    if explicit:
        return str(explicit)
    where, data = context.location, context.data
    if where in (Where.command_name, Where.group_name):
        return f"cmd.{qualified(data)}.name"
    if where in (Where.command_description, Where.group_description):
        return f"cmd.{qualified(data)}.description"
    if where is Where.parameter_name:
        return f"cmd.{qualified(data.command)}.opt.{data.name}.name"
    if where is Where.parameter_description:
        return f"cmd.{qualified(data.command)}.opt.{data.name}.description"
    return None


def desc(key: str) -> app_commands.locale_str:
    """A description whose default text is the French catalog entry, so the key is the single source."""
    return app_commands.locale_str(t(key, "fr"), key=key)


def choice(group: str, value: str) -> app_commands.Choice[str]:
    key = f"choice.{group}.{value}"
    return app_commands.Choice(name=app_commands.locale_str(t(key, "fr"), key=key), value=value)


def choice_key(choice: app_commands.Choice[Any]) -> str | None:
    """The catalog key of a choice declared with `choice(...)`; None for a literal name."""
    explicit = choice._locale_name.extras.get("key") if choice._locale_name else None
    return str(explicit) if explicit else None


def choice_label(choice: app_commands.Choice[Any]) -> Text:
    """A choice's name as the reader's client shows it, for messages that list the choices."""
    key = choice_key(choice)
    return Text(key) if key else Text.raw(choice.name)


class CatalogTranslator(app_commands.Translator):
    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContext[Any, Any],
    ) -> str | None:
        lang = DISCORD_LOCALES.get(locale)
        if lang is None:  # most of Discord's locales: asked for every string at every sync
            return None
        key = key_for(string, context)
        return None if key is None else catalogs()[lang].get(key)


def translation_keys(tree: app_commands.CommandTree[Any]) -> set[str]:
    """Every key the translator will look up for this tree; the catalog test checks both directions."""
    keys: set[str] = set()
    for command in tree.walk_commands():
        base = f"cmd.{qualified(command)}"
        keys.update({f"{base}.name", f"{base}.description"})
        if isinstance(command, app_commands.Command):
            for param in command.parameters:
                keys.update({f"{base}.opt.{param.name}.name", f"{base}.opt.{param.name}.description"})
                keys.update(k for k in map(choice_key, param.choices) if k)
    return keys


# A command's translated payload by its translator's type and its untranslated payload. discord.py builds a
# sync's payload by asking the translator for every name, description, option and choice in each of
# Discord's 32 locales: about 25,000 calls for this bot's commands, 21 ms of CPU a sync, for the three
# locales that answer. What they answer follows from what the command declares (its untranslated payload:
# names, options, choices, whose catalog keys derive from them) and from the catalogs, so the payload is
# built once per process and catalogs: `/admin sync` after a start's sync to the development server, and
# each bot a process starts (the test suite starts hundreds), take it from here. Kept as JSON, each sync
# gets its own copy. Dropped when the catalogs are loaded again.
_PAYLOADS: dict[tuple[type, bytes], bytes] = {}
_PAYLOADS_FOR: list[object] = [None]


async def translated_payload(
    tree: app_commands.CommandTree[Any], command: Any, translator: app_commands.Translator
) -> dict[str, Any]:
    """What `command.get_translated_payload(tree, translator)` returns, built once (see `_PAYLOADS`)."""
    loaded = catalogs()
    if _PAYLOADS_FOR[0] is not loaded:
        _PAYLOADS.clear()
        _PAYLOADS_FOR[0] = loaded
    key = (type(translator), orjson.dumps(command.to_dict(tree), option=orjson.OPT_SORT_KEYS))
    kept = _PAYLOADS.get(key)
    if kept is None:
        kept = _PAYLOADS[key] = orjson.dumps(await command.get_translated_payload(tree, translator))
    payload: dict[str, Any] = orjson.loads(kept)
    return payload
