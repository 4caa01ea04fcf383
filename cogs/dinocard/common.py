"""What the /dino mixins share: the game's services, a pack or card option read, refusals naming cards."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from cogs.shared import mixins as shared
from core.errors import BadInput
from discord_app.context import locale_of, services_of
from engine.dinocard import DinocardCard
from services.dinocard.packs import parse_cards
from services.infra.catalogs import fold
from services.shared.collecting import Problem

if TYPE_CHECKING:
    from services.dinocard import DinocardServices

LINE_KEY = "dinocard.pack.problem_line"


def dino_of(interaction: discord.Interaction[Any]) -> DinocardServices:
    services: DinocardServices = services_of(interaction).games["dinocard"]
    return services


def refused(
    key: str, problems: Sequence[Problem], cards: Mapping[str, DinocardCard], locale: str
) -> BadInput:
    return shared.refused(key, problems, cards, locale, LINE_KEY)


def cards_option(interaction: discord.Interaction[Any], value: str | None, locale: str) -> list[str] | None:
    return None if value is None else parse_cards(value, dino_of(interaction).packs.cards, locale)


def number_option(value: str) -> int:
    """A pack or battle number typed or chosen (« #12 » or « 12 »)."""
    digits = value.strip().lstrip("#")
    if not digits.isascii() or not digits.isdigit() or len(digits) > 15:
        raise BadInput("dinocard.error.pack.number")
    return int(digits)


async def pack_choices(interaction: discord.Interaction[Any], current: str) -> list[app_commands.Choice[str]]:
    """The player's own packs (name, level), for every option naming one of them."""
    await locale_of(interaction)
    views = await dino_of(interaction).packs.mine(interaction.user.id)
    wanted = fold(current)
    return [
        app_commands.Choice(
            name=f"{v.pack.name} (#{v.pack.id}, niv. {v.pack.level})"[:100], value=str(v.pack.id)
        )
        for v in views
        if wanted in fold(v.pack.name) or wanted in str(v.pack.id)
    ][:25]


async def card_choices(interaction: discord.Interaction[Any], current: str) -> list[app_commands.Choice[str]]:
    """Card names in the reader's language for the last entry of a comma-separated list."""
    locale = await locale_of(interaction)
    head, _, last = current.rpartition(",")
    wanted = fold(last.strip())
    prefix = f"{head}, " if head else ""
    cards = dino_of(interaction).packs.cards.values()
    names = sorted(c.name.get(locale) for c in cards if wanted in fold(c.name.get(locale)))
    return [app_commands.Choice(name=(prefix + n)[:100], value=(prefix + n)[:100]) for n in names][:25]
