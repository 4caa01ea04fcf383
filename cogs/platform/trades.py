"""/trade (/échange) and /gift (/cadeau): trades and gifts of any game's cards and currency.

Every command and button names a trade by its number; the service answers a trade of another server, or
one the user is no party to, as unknown. The trade window's buttons also work in the DMs the trade sends
(there only its parties reach it). Rules and decisions: docs/trades.md.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from core.errors import BadInput
from core.i18n import t
from discord_app.components import PersistentButton
from discord_app.context import locale_of, services_of
from discord_app.option_checks import Id
from discord_app.render import to_discord
from discord_app.translator import desc
from services.community.trades.service import TradeService
from services.community.trades.store import Trade
from services.infra.messages import MessageSpec, Text

AUTOCOMPLETE_LIMIT = 25


def trades_of(interaction: discord.Interaction[Any]) -> TradeService:
    return services_of(interaction).trades


def member_since(user: discord.abc.User) -> datetime | None:
    """When a member joined the server where the command runs (Discord sends it in interactions)."""
    return user.joined_at if isinstance(user, discord.Member) else None


def is_admin(interaction: discord.Interaction[Any]) -> bool:
    """A server's admins (Manage Server) read every trade of their server."""
    return interaction.guild_id is not None and interaction.permissions.manage_guild


def check_partner(interaction: discord.Interaction[Any], player: discord.abc.User) -> None:
    if player.bot:
        raise BadInput("trades.error.bot")
    if interaction.guild_id is None:
        raise BadInput("trades.error.server_only")


async def window_reply(
    interaction: discord.Interaction[Any], trade: Trade, *, notice: Text | None = None
) -> None:
    spec = await trades_of(interaction).window(trade, interaction.user.id)
    if notice is not None:
        spec = MessageSpec(content=notice, embeds=spec.embeds, buttons=spec.buttons)
    await send_window(interaction, spec)


async def send_window(interaction: discord.Interaction[Any], spec: MessageSpec) -> None:
    locale = await locale_of(interaction)
    await interaction.response.send_message(**to_discord(spec, locale), ephemeral=True)


async def game_choices(interaction: discord.Interaction[Any], current: str) -> list[app_commands.Choice[str]]:
    """The games whose cards and currency can be traded, named in the reader's language."""
    locale = await locale_of(interaction)
    wanted = current.casefold()
    found = [
        app_commands.Choice(name=t(g.name_key, locale)[:100], value=g.key)
        for g in services_of(interaction).registry.all_games()
        if g.currencies and (wanted in g.key or wanted in t(g.name_key, locale).casefold())
    ]
    return found[:AUTOCOMPLETE_LIMIT]


class TradeCommands(commands.GroupCog, group_name="trade", group_description=desc("cmd.trade.description")):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @app_commands.command(name="with", description=desc("cmd.trade.with.description"))
    @app_commands.describe(
        player=desc("cmd.trade.with.opt.player.description"), game=desc("cmd.trade.with.opt.game.description")
    )
    @app_commands.autocomplete(game=game_choices)
    async def trade_with(
        self,
        interaction: discord.Interaction[Any],
        player: discord.User,
        game: app_commands.Range[str, 1, 40],
    ) -> None:
        check_partner(interaction, player)
        assert interaction.guild_id is not None
        trade = await trades_of(interaction).open(
            interaction.guild_id,
            interaction.channel_id,
            interaction.user.id,
            player.id,
            game,
            (member_since(interaction.user), member_since(player)),
        )
        await window_reply(interaction, trade, notice=Text("trades.opened", {"id": trade.id}))

    @app_commands.command(name="card", description=desc("cmd.trade.card.description"))
    @app_commands.describe(
        trade=desc("cmd.trade.card.opt.trade.description"), card=desc("cmd.trade.card.opt.card.description")
    )
    async def trade_card(
        self, interaction: discord.Interaction[Any], trade: Id, card: app_commands.Range[str, 1, 100]
    ) -> None:
        locale = await locale_of(interaction)
        found = await trades_of(interaction).add_card(
            interaction.guild_id, trade, interaction.user.id, card, locale
        )
        await window_reply(interaction, found)

    @app_commands.command(name="remove", description=desc("cmd.trade.remove.description"))
    @app_commands.describe(
        trade=desc("cmd.trade.remove.opt.trade.description"),
        copy=desc("cmd.trade.remove.opt.copy.description"),
    )
    async def trade_remove(self, interaction: discord.Interaction[Any], trade: Id, copy: Id) -> None:
        found = await trades_of(interaction).remove_card(
            interaction.guild_id, trade, interaction.user.id, copy
        )
        await window_reply(interaction, found)

    @app_commands.command(name="money", description=desc("cmd.trade.money.description"))
    @app_commands.describe(
        trade=desc("cmd.trade.money.opt.trade.description"),
        amount=desc("cmd.trade.money.opt.amount.description"),
    )
    async def trade_money(
        self, interaction: discord.Interaction[Any], trade: Id, amount: app_commands.Range[int, 0, 10**9]
    ) -> None:
        found = await trades_of(interaction).set_amount(
            interaction.guild_id, trade, interaction.user.id, amount
        )
        await window_reply(interaction, found)

    @app_commands.command(name="show", description=desc("cmd.trade.show.description"))
    @app_commands.describe(trade=desc("cmd.trade.show.opt.trade.description"))
    async def trade_show(self, interaction: discord.Interaction[Any], trade: Id) -> None:
        found = await trades_of(interaction).show(
            interaction.guild_id, trade, interaction.user.id, admin=is_admin(interaction)
        )
        await window_reply(interaction, found)

    @app_commands.command(name="cancel", description=desc("cmd.trade.cancel.description"))
    @app_commands.describe(trade=desc("cmd.trade.cancel.opt.trade.description"))
    async def trade_cancel(self, interaction: discord.Interaction[Any], trade: Id) -> None:
        found = await trades_of(interaction).cancel(interaction.guild_id, trade, interaction.user.id)
        await window_reply(interaction, found)

    @app_commands.command(name="history", description=desc("cmd.trade.history.description"))
    @app_commands.describe(player=desc("cmd.trade.history.opt.player.description"))
    @app_commands.guild_only()
    async def trade_history(
        self, interaction: discord.Interaction[Any], player: discord.User | None = None
    ) -> None:
        locale = await locale_of(interaction)
        assert interaction.guild_id is not None
        spec = await trades_of(interaction).history(
            interaction.guild_id,
            interaction.user.id,
            of=None if player is None else player.id,
            admin=is_admin(interaction),
        )
        await interaction.response.send_message(**to_discord(spec, locale), ephemeral=True)


class GiftCommand(commands.Cog):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @app_commands.command(name="gift", description=desc("cmd.gift.description"))
    @app_commands.describe(
        player=desc("cmd.gift.opt.player.description"),
        game=desc("cmd.gift.opt.game.description"),
        card=desc("cmd.gift.opt.card.description"),
        amount=desc("cmd.gift.opt.amount.description"),
    )
    @app_commands.autocomplete(game=game_choices)
    async def gift(
        self,
        interaction: discord.Interaction[Any],
        player: discord.User,
        game: app_commands.Range[str, 1, 40],
        card: app_commands.Range[str, 1, 100] | None = None,
        amount: app_commands.Range[int, 1, 10**9] | None = None,
    ) -> None:
        check_partner(interaction, player)
        assert interaction.guild_id is not None
        locale = await locale_of(interaction)
        trade = await trades_of(interaction).gift(
            interaction.guild_id,
            interaction.channel_id,
            interaction.user.id,
            player.id,
            game,
            card,
            amount,
            (member_since(interaction.user), member_since(player)),
            locale,
        )
        await window_reply(interaction, trade, notice=Text("trades.gift_ready", {"id": trade.id}))


class TradeConfirmButton(PersistentButton, template=r"trade:confirm:(?P<id>\d+):(?P<version>\d+)"):
    """Confirm the offers as this window showed them; a window drawn before a change is refused."""

    async def on_click(self, interaction: discord.Interaction[Any], locale: str) -> None:
        message = interaction.message.id if interaction.message is not None else interaction.id
        spec = await trades_of(interaction).confirm_window(
            interaction.guild_id,
            int(self.match["id"]),
            interaction.user.id,
            int(self.match["version"]),
            f"{message}:{interaction.user.id}",
        )
        await send_window(interaction, spec)


class TradeCancelButton(PersistentButton, template=r"trade:cancel:(?P<id>\d+)"):
    async def on_click(self, interaction: discord.Interaction[Any], locale: str) -> None:
        trade = await trades_of(interaction).cancel(
            interaction.guild_id, int(self.match["id"]), interaction.user.id
        )
        await window_reply(interaction, trade)


async def setup(bot: commands.Bot) -> None:
    bot.add_dynamic_items(TradeConfirmButton, TradeCancelButton)
    await bot.add_cog(TradeCommands(bot))
    await bot.add_cog(GiftCommand(bot))
