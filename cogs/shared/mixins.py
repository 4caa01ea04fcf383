"""What the command mixins of a game's GroupCog (cogs/<game>/*.py) share: the mixin base, the private
reply, and a refusal that lists every reason of a rule check (services/shared/collecting.py `Problem`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import discord

from core.errors import BadInput
from discord_app.context import public_locale_of
from discord_app.render import text, to_discord
from engine.cards import CardBase
from services.infra.messages import MessageSpec
from services.shared.collecting import Problem
from services.shared.render.problems import problem_lines

if TYPE_CHECKING:  # for the type checker, commands live on a Cog; at run time a mixin is a plain class
    from discord.ext.commands import Cog as CommandsMixin
else:
    CommandsMixin = object


async def send(interaction: discord.Interaction[Any], spec: MessageSpec, locale: str, **extra: Any) -> None:
    """Reply with a spec; private unless `ephemeral=False` is given."""
    kwargs = to_discord(spec, locale) | extra
    kwargs.setdefault("ephemeral", True)
    await interaction.response.send_message(**kwargs)


async def send_board(interaction: discord.Interaction[Any], spec: MessageSpec) -> None:
    """A board the server shares (a leaderboard): public, in the server's language, and it pings none of
    the players it names."""
    locale = await public_locale_of(interaction)
    await send(interaction, spec, locale, ephemeral=False, allowed_mentions=discord.AllowedMentions.none())


def refused(
    key: str, problems: Sequence[Problem], cards: Mapping[str, CardBase], locale: str, line_key: str
) -> BadInput:
    """A refusal listing every reason (the global handler would only show the first one)."""
    return BadInput(key, reasons=text(problem_lines(problems, cards, locale, line_key), locale))


__all__ = ["CommandsMixin", "refused", "send", "send_board"]
