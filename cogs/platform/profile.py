"""/profile: wallets, a line per game, the titles won in tournaments, and the date the player joined,
with its picture (services/community/profile_card.py)."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from core.errors import NotFound
from discord_app.context import locale_of, services_of
from discord_app.render import image_file, to_discord
from discord_app.translator import desc
from services.community import profile_card
from services.community.card_images.service import CardImage
from services.infra import games
from services.infra.messages import Embed, EmbedField, MessageSpec, Text
from services.infra.players import Profile


def profile_spec(
    profile: Profile, name: str, *, own: bool, locale: str, image: CardImage | None = None
) -> MessageSpec:
    """Your own profile shows your wallets; another player's shows only what is public (games and join date)."""
    fields: list[EmbedField] = []
    if own:
        wallets = [
            Text(
                "profile.wallet_line", {"game": Text(game), "amounts": [games.money(c, v) for c, v in purse]}
            )
            for game, purse in profile.purses
        ]
        fields.append(
            EmbedField(Text("profile.wallets"), _lines(wallets, Text("profile.no_wallet")), inline=False)
        )
    for game_key, lines in profile.summaries:
        body = [Text(line.key, dict(line.params)) for line in lines]
        fields.append(EmbedField(Text(game_key), _lines(body, Text("profile.not_played")), inline=False))
    if profile.titles:  # a tournament's podium (services/community/tournaments/titles.py): public
        titles = [Text(line.key, dict(line.params)) for line in profile.titles]
        fields.append(EmbedField(Text("tournaments.profile.field"), Text.lines(titles), inline=False))
    joined = int(profile.joined.timestamp())
    fields.append(EmbedField(Text("profile.joined"), Text.raw(f"<t:{joined}:D>"), inline=False))
    embed = Embed(
        title=Text("profile.title", {"name": name}),
        fields=tuple(fields),
        color=image.color if image is not None else None,
        image=image.filename if image is not None else None,
    )
    return MessageSpec(embeds=(embed,))


def _lines(lines: list[Text], empty: Text) -> Text:
    return Text.lines(lines) if lines else empty


class ProfileCog(commands.Cog):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @app_commands.command(name="profile", description=desc("cmd.profile.description"))
    @app_commands.describe(player=desc("cmd.profile.opt.player.description"))
    async def profile(
        self, interaction: discord.Interaction[Any], player: discord.User | None = None
    ) -> None:
        locale = await locale_of(interaction)
        target = player or interaction.user
        own = target.id == interaction.user.id
        result = await services_of(interaction).players.profile(target.id, create=own)
        if result is None:
            raise NotFound("error.no_profile", name=target.display_name)
        services = services_of(interaction)
        image = await profile_card.picture(
            services.players, services.card_images, result, target.display_name, own=own, locale=locale
        )
        spec = profile_spec(result, target.display_name, own=own, locale=locale, image=image)
        await interaction.response.send_message(
            **to_discord(spec, locale), files=[image_file(image)], ephemeral=True
        )


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(ProfileCog(bot))
