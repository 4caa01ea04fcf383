"""/daily (« /quotidien »): every game's daily reward in one command, or one game's; /cooldowns
(« /minuteurs »): every timer the player has, as Discord relative times. Both answer privately."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from core.i18n import normalize_locale, t
from discord_app.context import locale_of, services_of
from discord_app.render import to_discord
from discord_app.translator import desc
from services.community.daily import DailyClaim, daily_games
from services.community.reminders import Cooldown
from services.infra import games
from services.infra.games import GameRegistry
from services.infra.messages import Embed, EmbedField, MessageSpec, Text
from services.infra.timers import relative


def claim_line(claim: DailyClaim, registry: GameRegistry) -> Text:
    """One game's claim: what it paid and the streak, or when the next one opens."""
    params: dict[str, object] = {
        "game": registry.name(claim.game),
        "amount": games.money(claim.currency, claim.amount),
        "balance": games.money(claim.currency, claim.balance),
        "streak": claim.streak,
    }
    if claim.credited:
        return Text("daily.credited", params)
    return Text("daily.already", {**params, "next": relative(claim.next_at)})


def daily_spec(claims: list[DailyClaim], registry: GameRegistry) -> MessageSpec:
    if not claims:
        return MessageSpec(content=Text("daily.none"))
    return MessageSpec(content=Text.lines([claim_line(c, registry) for c in claims]))


def cooldowns_spec(found: list[Cooldown], reminders_on: bool, registry: GameRegistry) -> MessageSpec:
    """A field per game, a line per timer; the footer says whether reminders are on."""
    fields: list[EmbedField] = []
    for spec in registry.all_games():
        lines = [
            Text("cooldowns.line", {"label": c.timer.label, "status": c.timer.status})
            for c in found
            if c.game.key == spec.key
        ]
        if lines:
            fields.append(EmbedField(Text(spec.name_key), Text.lines(lines), inline=False))
    footer = Text("cooldowns.reminders_on" if reminders_on else "cooldowns.reminders_off")
    if not fields:
        return MessageSpec(content=Text.lines([Text("cooldowns.none"), footer]))
    return MessageSpec(content=footer, embeds=(Embed(title=Text("cooldowns.title"), fields=tuple(fields)),))


class DailyCog(commands.Cog):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @app_commands.command(name="daily", description=desc("cmd.daily.description"))
    @app_commands.describe(game=desc("cmd.daily.opt.game.description"))
    async def daily(self, interaction: discord.Interaction[Any], game: str | None = None) -> None:
        locale = await locale_of(interaction)
        claims = await services_of(interaction).daily.claim(interaction.user.id, game or None)
        await interaction.response.send_message(
            **to_discord(daily_spec(claims, services_of(interaction).registry), locale), ephemeral=True
        )

    @daily.autocomplete("game")
    async def daily_game(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        """The games that have a daily, named in the reader's language (a read only)."""
        services = services_of(interaction)
        chosen = await services.players.locale_of(interaction.user.id)
        locale = chosen or normalize_locale(str(interaction.locale), default=services.settings.default_locale)
        typed = current.casefold()
        named = [(t(g.name_key, locale), g.key) for g in daily_games(services.registry)]
        return [app_commands.Choice(name=n[:100], value=k) for n, k in named if typed in n.casefold()]

    @app_commands.command(name="cooldowns", description=desc("cmd.cooldowns.description"))
    async def cooldowns(self, interaction: discord.Interaction[Any]) -> None:
        locale = await locale_of(interaction)
        services = services_of(interaction)
        found = await services.reminders.cooldowns(interaction.user.id)
        on = await services.reminders.is_enabled(interaction.user.id)
        await interaction.response.send_message(
            **to_discord(cooldowns_spec(found, on, services.registry), locale), ephemeral=True
        )


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(DailyCog(bot))
