"""Drops in Discord (docs/drops.md): `/setup drops`, the « Prendre » and « Vérifier » buttons of a drop's
post, and the activity every slash command in a server records (an after-command hook)."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from cogs.shared.setup import SetupCommand, SetupSection, attach_loaded, require_manage_guild
from core.errors import NotFound
from core.i18n import t
from discord_app.after_command import add_after_command, remove_after_command
from discord_app.components import PersistentButton
from discord_app.context import locale_of, services_of
from discord_app.render import files_of, to_discord
from discord_app.translator import choice, desc
from services.community.drops import posts
from services.community.drops.rhythm import RHYTHM_NAMES, RHYTHMS, RhythmName
from services.community.drops.settings import DropSettings, drop_games, game_names, parse_games
from services.infra.catalogs import fold
from services.infra.games import GameRegistry

AUTOCOMPLETE_LIMIT = 25


class TakeButton(PersistentButton, template=r"drops:take:(?P<drop>\d+)"):
    """« Prendre »: enter the drop's draw (services/community/drops/service.py `enter`)."""

    async def on_click(self, interaction: discord.Interaction[Any], locale: str) -> None:
        if interaction.guild_id is None:
            raise NotFound("drops.error.not_found")
        entered = await services_of(interaction).drops.enter(
            int(self.match["drop"]), interaction.guild_id, interaction.user.id
        )
        key = "drops.entered" if entered.fresh else "drops.entered_again"
        await interaction.response.send_message(
            t(key, locale, ends=posts.stamp(entered.closes_at)), ephemeral=True
        )


class VerifyButton(PersistentButton, template=r"drops:verify:(?P<drop>\d+)"):
    """« Vérifier »: the drawn drop's proof, privately, with its record as a file."""

    async def on_click(self, interaction: discord.Interaction[Any], locale: str) -> None:
        if interaction.guild_id is None:
            raise NotFound("drops.error.not_found")
        checked = await services_of(interaction).drops.verify(int(self.match["drop"]), interaction.guild_id)
        spec = posts.proof_reply(checked.proof, checked.verdict)
        await interaction.response.send_message(
            **to_discord(spec, locale), files=files_of(spec, locale), ephemeral=True
        )


def settings_text(settings: DropSettings, locale: str, registry: GameRegistry) -> str:
    chosen = settings.eligible(drop_games(registry))
    names = (
        game_names(registry, locale, chosen)
        if settings.games
        else t("drops.setup.all_games", locale, games=game_names(registry, locale))
    )
    return t("drops.setup.summary", locale, rhythm=t(f"choice.drops.{settings.rhythm}", locale), games=names)


async def games_typed(interaction: discord.Interaction[Any], current: str) -> list[app_commands.Choice[str]]:
    """The list typed so far with its last name completed, in the reader's language."""
    locale = await locale_of(interaction)
    done, _, last = current.rpartition(",")
    head = [part.strip() for part in done.split(",") if part.strip()]
    wanted = fold(last)
    found = []
    for key in drop_games(services_of(interaction).registry):
        spec = services_of(interaction).registry.get(key)
        name = t(spec.name_key, locale) if spec is not None else key
        if wanted in fold(name) and name not in head:
            value = ", ".join([*head, name])
            found.append(app_commands.Choice(name=value[:100], value=value[:100]))
    return found[:AUTOCOMPLETE_LIMIT]


def setup_commands() -> tuple[SetupCommand, ...]:
    @app_commands.describe(
        rhythm=desc("cmd.setup.drops.opt.rhythm.description"),
        games=desc("cmd.setup.drops.opt.games.description"),
    )
    @app_commands.choices(rhythm=[choice("drops", name) for name in RHYTHM_NAMES])
    @app_commands.autocomplete(games=games_typed)
    async def drops(
        interaction: discord.Interaction[Any],
        rhythm: app_commands.Choice[str],
        games: app_commands.Range[str, 1, 200] | None = None,
    ) -> None:
        require_manage_guild(interaction)
        locale = await locale_of(interaction)
        assert interaction.guild_id is not None
        services = services_of(interaction)
        chosen = None if games is None else parse_games(services.registry, games, locale)
        name: RhythmName = next(n for n in RHYTHM_NAMES if n == rhythm.value)
        saved = await services.drops.configure(interaction.guild_id, name, chosen)
        lines = [t("setup.saved", locale), settings_text(saved, locale, services.registry)]
        if saved.on:
            pace = RHYTHMS[saved.rhythm]
            lines.append(
                t(
                    "drops.setup.explain",
                    locale,
                    gap=int(pace.gap.total_seconds() // 60),
                    players=pace.players_per_drop,
                    cap=pace.daily_cap,
                )
            )
            if (await services.guilds.get(interaction.guild_id)).games_channel_id is None:
                lines.append(t("drops.setup.no_channel", locale))
        await interaction.response.send_message("\n".join(lines), ephemeral=True)

    return (app_commands.command(name="drops", description=desc("cmd.setup.drops.description"))(drops),)


async def setup_summary(interaction: discord.Interaction[Any], locale: str) -> str:
    assert interaction.guild_id is not None
    services = services_of(interaction)
    return settings_text(await services.drops.settings(interaction.guild_id), locale, services.registry)


async def record_activity(interaction: discord.Interaction[Any], _command: Any) -> None:
    """After every slash command in a server: the drops' activity (written at most once a minute per
    server, and once per player and day; services/community/drops/activity.py)."""
    if interaction.guild_id is not None:
        await services_of(interaction).drops.activity(interaction.guild_id, interaction.user.id)


class DropsCog(commands.Cog):
    setup_section = SetupSection("drops", setup_commands, setup_summary)

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        add_after_command(self.bot, record_activity)

    async def cog_unload(self) -> None:
        remove_after_command(self.bot, record_activity)


async def setup(bot: commands.Bot) -> None:
    cog = DropsCog(bot)
    await bot.add_cog(cog)
    attach_loaded(bot, cog.setup_section)
    bot.add_dynamic_items(TakeButton, VerifyButton)
