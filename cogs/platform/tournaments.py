"""/tournoi (/tournament): tournaments run by the bot (docs/tournaments.md). Server managers (Manage Server)
create and cancel; any player joins, leaves before the start, and looks. The rounds, their matches, posts
and DMs are the scheduler's and the outbox's (services/community/tournaments/); the buttons of a match are
its game's (« Prêt » of a duel, « Regarder » of a Dinocard battle)."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from core.i18n import t
from discord_app.context import locale_of, services_of
from discord_app.option_checks import Id
from discord_app.render import files_with_strips, to_discord
from discord_app.translator import choice, desc
from services.community.tournaments import posts
from services.community.tournaments.service import MAX_FEE, MAX_ROUNDS, Creation, TournamentService
from services.community.tournaments.store import Tournament
from services.infra.games import GameRegistry
from services.infra.messages import Embed, MessageSpec, Text

AUTOCOMPLETE_LIMIT = 25


def tournaments_of(interaction: discord.Interaction[Any]) -> TournamentService:
    return services_of(interaction).tournaments


def manages(interaction: discord.Interaction[Any]) -> bool:
    return interaction.guild_id is not None and interaction.permissions.manage_guild


async def game_choices(interaction: discord.Interaction[Any], current: str) -> list[app_commands.Choice[str]]:
    """The games tournaments can be made of, named in the reader's language."""
    locale = await locale_of(interaction)
    wanted = current.casefold()
    found = []
    for key in tournaments_of(interaction).games():
        spec = services_of(interaction).registry.get(key)
        name = t(spec.name_key, locale) if spec is not None else key
        if wanted in key or wanted in name.casefold():
            found.append(app_commands.Choice(name=name[:100], value=key))
    return found[:AUTOCOMPLETE_LIMIT]


async def reply(interaction: discord.Interaction[Any], spec: MessageSpec) -> None:
    locale = await locale_of(interaction)
    files = await files_with_strips(spec, locale, services_of(interaction).card_images)
    await interaction.response.send_message(**to_discord(spec, locale), files=files, ephemeral=True)


def _said(key: str, t_: Tournament, registry: GameRegistry, **params: object) -> MessageSpec:
    return MessageSpec(content=Text(key, {"number": t_.id, "title": posts.title(t_, registry), **params}))


class TournamentCog(
    commands.GroupCog, group_name="tournament", group_description=desc("cmd.tournament.description")
):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        super().__init__()

    @app_commands.command(name="create", description=desc("cmd.tournament.create.description"))
    @app_commands.describe(
        game=desc("cmd.tournament.create.opt.game.description"),
        format=desc("cmd.tournament.create.opt.format.description"),
        players=desc("cmd.tournament.create.opt.players.description"),
        registration=desc("cmd.tournament.create.opt.registration.description"),
        round_time=desc("cmd.tournament.create.opt.round_time.description"),
        fee=desc("cmd.tournament.create.opt.fee.description"),
        seeding=desc("cmd.tournament.create.opt.seeding.description"),
        rounds=desc("cmd.tournament.create.opt.rounds.description"),
    )
    @app_commands.autocomplete(game=game_choices)
    @app_commands.choices(
        format=[choice("tournament_format", "elimination"), choice("tournament_format", "swiss")],
        round_time=[choice("round_time", "1"), choice("round_time", "24"), choice("round_time", "72")],
        seeding=[choice("seeding", "random"), choice("seeding", "rating")],
    )
    @app_commands.guild_only()
    async def create(
        self,
        interaction: discord.Interaction[Any],
        game: app_commands.Range[str, 1, 40],
        format: app_commands.Choice[str],
        players: app_commands.Range[int, 4, 64],
        registration: app_commands.Range[str, 1, 40],
        round_time: app_commands.Choice[str],
        fee: app_commands.Range[int, 0, MAX_FEE] = 0,
        seeding: app_commands.Choice[str] | None = None,
        rounds: app_commands.Range[int, 1, MAX_ROUNDS] | None = None,
    ) -> None:
        await locale_of(interaction)  # the manager exists (their first command creates them)
        asked = Creation(
            game=game,
            format=format.value,
            max_players=players,
            closes=registration,
            round_hours=int(round_time.value),
            fee=fee,
            seeding=seeding.value if seeding is not None else "random",
            rounds=rounds,
        )
        assert interaction.channel_id is not None
        made = await tournaments_of(interaction).create(
            interaction.guild_id,
            interaction.channel_id,
            interaction.user.id,
            manages=manages(interaction),
            asked=asked,
            key=interaction.id,
        )
        embed = Embed(
            title=Text(
                "tournaments.heading",
                {"title": posts.title(made, services_of(interaction).registry), "number": made.id},
            ),
            description=posts.summary(made, 0),
            color=posts.COLOR,
        )
        await reply(
            interaction,
            MessageSpec(content=Text("tournaments.created", {"number": made.id}), embeds=(embed,)),
        )

    @app_commands.command(name="join", description=desc("cmd.tournament.join.description"))
    @app_commands.describe(tournament=desc("cmd.tournament.join.opt.tournament.description"))
    async def join(self, interaction: discord.Interaction[Any], tournament: Id) -> None:
        await locale_of(interaction)
        found = await tournaments_of(interaction).join(
            interaction.guild_id, tournament, interaction.user.id, interaction.user.display_name
        )
        paid = (
            Text("tournaments.joined_fee", {"fee": posts.money_of(found, found.fee)})
            if found.fee
            else Text.raw("")
        )
        await reply(
            interaction,
            _said(
                "tournaments.joined",
                found,
                services_of(interaction).registry,
                at=f"<t:{int(found.starts_at.timestamp())}:f>",
                paid=paid,
            ),
        )

    @app_commands.command(name="leave", description=desc("cmd.tournament.leave.description"))
    @app_commands.describe(tournament=desc("cmd.tournament.leave.opt.tournament.description"))
    async def leave(self, interaction: discord.Interaction[Any], tournament: Id) -> None:
        await locale_of(interaction)
        found = await tournaments_of(interaction).leave(interaction.guild_id, tournament, interaction.user.id)
        await reply(interaction, _said("tournaments.left", found, services_of(interaction).registry))

    @app_commands.command(name="show", description=desc("cmd.tournament.show.description"))
    @app_commands.describe(tournament=desc("cmd.tournament.show.opt.tournament.description"))
    async def show(self, interaction: discord.Interaction[Any], tournament: Id | None = None) -> None:
        await locale_of(interaction)
        await reply(interaction, await tournaments_of(interaction).show(interaction.guild_id, tournament))

    @app_commands.command(name="cancel", description=desc("cmd.tournament.cancel.description"))
    @app_commands.describe(tournament=desc("cmd.tournament.cancel.opt.tournament.description"))
    async def cancel(self, interaction: discord.Interaction[Any], tournament: Id) -> None:
        await locale_of(interaction)
        found = await tournaments_of(interaction).cancel(
            interaction.guild_id, tournament, interaction.user.id, manages=manages(interaction)
        )
        await reply(
            interaction, _said("tournaments.cancelled_reply", found, services_of(interaction).registry)
        )


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(TournamentCog(bot))
