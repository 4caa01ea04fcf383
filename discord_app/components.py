"""Persistent buttons: a namespaced custom_id holding only opaque ids, re-checked by a service on every click.

Subclass `PersistentButton` with a `template` like r"outbox:show:(?P<id>\\d+)" and implement `on_click`.
Errors raised there go through the same localized handler as slash commands.

A custom_id comes back from the client, so the numbers in it are bounded here, once, before any subclass
reads them: `\\d+` also matches 40 digits or Arabic-Indic digits, which `int()` accepts and SQLite's
64-bit integers do not.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable, Iterable
from typing import TYPE_CHECKING, Any, ClassVar

import discord

from core.errors import BadInput
from discord_app.context import locale_of
from discord_app.errors import GameTree, handle_error
from discord_app.gate import check_game_access

SQLITE_INT_MAX = 2**63 - 1
"""The largest number a custom_id may carry: Discord ids (snowflakes) pass 2^53, and SQLite stores 64 bits."""


def check_numbers(parts: Iterable[str | None]) -> None:
    """Refuse a custom_id part or select value made of digits that is not a number SQLite can store."""
    for part in parts:
        if part and part.isdigit() and (not part.isascii() or int(part) > SQLITE_INT_MAX):
            raise BadInput("error.component")


class PersistentButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"__base__"):
    namespace: ClassVar[str] = "base"

    def __init__(self, custom_id: str, match: dict[str, str]) -> None:
        super().__init__(discord.ui.Button(custom_id=custom_id))
        self.match = match

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> PersistentButton:
        return cls(item.custom_id if hasattr(item, "custom_id") else "", match.groupdict())

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        async def act(locale: str) -> None:
            check_numbers(self.match.values())
            await self.on_click(interaction, locale)

        await guarded(interaction, act)

    if TYPE_CHECKING:  # every subclass defines it; the base class is never registered

        async def on_click(self, interaction: discord.Interaction[Any], locale: str) -> None: ...


class PersistentSelect(discord.ui.DynamicItem[discord.ui.Select[Any]], template=r"__base_select__"):
    """A string select with the same opaque ids, re-checks and error handling as PersistentButton."""

    def __init__(
        self, custom_id: str, match: dict[str, str], options: list[discord.SelectOption] | None = None
    ) -> None:
        placeholder_options = options or [discord.SelectOption(label="-", value="-")]
        super().__init__(discord.ui.Select(custom_id=custom_id, options=placeholder_options))
        self.match = match

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> PersistentSelect:
        return cls(getattr(item, "custom_id", ""), match.groupdict())

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        data: dict[str, Any] = dict(interaction.data or {})
        values = [str(v) for v in data.get("values", [])]

        async def act(locale: str) -> None:
            check_numbers([*self.match.values(), *values])
            await self.on_select(interaction, locale, values)

        await guarded(interaction, act)

    if TYPE_CHECKING:  # every subclass defines it; the base class is never registered

        async def on_select(
            self, interaction: discord.Interaction[Any], locale: str, values: list[str]
        ) -> None: ...


async def guarded(interaction: discord.Interaction[Any], action: Callable[[str], Awaitable[None]]) -> None:
    """Run a component's action in the reader's language; errors go through the slash commands' handler."""
    try:
        locale = await locale_of(interaction)
        await check_game_access(interaction)
        await action(locale)
    except Exception as exc:
        locale = interaction.extras.get("locale", "fr")
        if not await handle_error(interaction, exc, locale):
            tree = interaction.client.tree
            if isinstance(tree, GameTree):
                tree.unexpected_errors.append(exc)
