"""/admin: the bot owners' tools. Publishing the commands, and correcting a player's wallets, copies and
progress, which are global (docs/admin.md); every correction lands in the audit log of the server
where it ran."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from core.errors import NotAllowed, NotFound
from core.i18n import normalize_locale, t
from core.message_guard import echo
from discord_app.context import locale_of, services_of
from discord_app.errors import fit
from discord_app.option_checks import Id
from discord_app.translator import desc
from services.community.admin import Actor, LedgerLine, Page
from services.infra import games
from services.infra.messages import Text, render_text

AUTOCOMPLETE_LIMIT = 25
Reason = app_commands.Range[str, 1, 200]
Amount = app_commands.Range[int, 1, 1_000_000]


def require_owner(interaction: discord.Interaction[Any]) -> Actor:
    """`default_permissions` only hides /admin from non-administrators: the owners are checked here."""
    if interaction.user.id not in services_of(interaction).settings.owner_ids:
        raise NotAllowed("error.owner_only")
    return Actor(interaction.user.id, interaction.guild_id, interaction.id)


def ledger_text(page: Page[LedgerLine], name: str, locale: str) -> str:
    lines = [t("admin.ledger.title", locale, name=name, page=page.page, pages=page.pages)]
    for line in page.lines:
        sign = "+" if line.delta > 0 else "−"
        if line.currency:
            change = sign + render_text(games.money(line.currency, abs(line.delta)), locale)
            after = render_text(games.money(line.currency, line.balance_after or 0), locale)
        else:
            change, after = f"{sign}1 {line.card or '?'}", "—"
        params = {"id": line.id, "at": f"<t:{int(line.at.timestamp())}:f>", "change": change, "after": after}
        lines.append(t("admin.ledger.line", locale, **params, reason=line.reason, ref=line.ref or "—"))
    if not page.lines:
        lines.append(t("admin.ledger.empty", locale))
    return "\n".join(lines)


async def game_choices(interaction: discord.Interaction[Any], current: str) -> list[app_commands.Choice[str]]:
    locale = normalize_locale(str(interaction.locale))
    named = [
        (t(g.name_key, locale), g.key)
        for g in services_of(interaction).registry.all_games()
        if g.reset is not None
    ]
    return [
        app_commands.Choice(name=name, value=key) for name, key in named if current.lower() in name.lower()
    ][:AUTOCOMPLETE_LIMIT]


async def currency_choices(
    interaction: discord.Interaction[Any], current: str
) -> list[app_commands.Choice[str]]:
    locale = normalize_locale(str(interaction.locale))
    named = [(t(c.name_key, locale), c.code) for c in services_of(interaction).registry.currencies()]
    return [
        app_commands.Choice(name=name, value=code) for name, code in named if current.lower() in name.lower()
    ][:AUTOCOMPLETE_LIMIT]


async def card_choices(interaction: discord.Interaction[Any], current: str) -> list[app_commands.Choice[str]]:
    """A read only, as /card's: runs on every keystroke."""
    services = services_of(interaction)
    locale = normalize_locale(str(interaction.locale))
    return [
        app_commands.Choice(name=f"{ref.name_in(locale)} ({ref.game})"[:100], value=ref.key)
        for ref in services.cards.search(current, locale, limit=AUTOCOMPLETE_LIMIT)
    ]


@app_commands.default_permissions(administrator=True)
class AdminCog(commands.GroupCog, group_name="admin", group_description=desc("cmd.admin.description")):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        super().__init__()

    async def _reply(self, interaction: discord.Interaction[Any], message: str) -> None:
        await interaction.response.send_message(message, ephemeral=True)

    @app_commands.command(name="sync", description=desc("cmd.admin.sync.description"))
    async def sync(self, interaction: discord.Interaction[Any]) -> None:
        require_owner(interaction)
        locale = await locale_of(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        synced = await self.bot.tree.sync()
        await interaction.followup.send(t("admin.synced", locale, count=len(synced)), ephemeral=True)

    async def _change_wallet(
        self,
        interaction: discord.Interaction[Any],
        player: discord.User,
        currency: str,
        amount: int,
        reason: str,
        *,
        take: bool,
    ) -> None:
        """/admin grant and take: the same owner check and reply around the one service call that differs."""
        actor = require_owner(interaction)
        locale = await locale_of(interaction)
        admin = services_of(interaction).admin
        change = admin.take if take else admin.grant
        after = await change(actor, player.id, currency, amount, reason)
        key = "admin.taken" if take else "admin.granted"
        params = {
            "amount": games.money(currency, amount),
            "name": player.mention,
            "balance": games.money(currency, after),
        }
        await self._reply(interaction, render_text(Text(key, params), locale))

    @app_commands.command(name="grant", description=desc("cmd.admin.grant.description"))
    @app_commands.describe(
        player=desc("cmd.admin.grant.opt.player.description"),
        currency=desc("cmd.admin.grant.opt.currency.description"),
        amount=desc("cmd.admin.grant.opt.amount.description"),
        reason=desc("cmd.admin.grant.opt.reason.description"),
    )
    @app_commands.autocomplete(currency=currency_choices)
    async def grant(
        self,
        interaction: discord.Interaction[Any],
        player: discord.User,
        currency: app_commands.Range[str, 1, 50],
        amount: Amount,
        reason: Reason,
    ) -> None:
        await self._change_wallet(interaction, player, currency, amount, reason, take=False)

    @app_commands.command(name="take", description=desc("cmd.admin.take.description"))
    @app_commands.describe(
        player=desc("cmd.admin.take.opt.player.description"),
        currency=desc("cmd.admin.take.opt.currency.description"),
        amount=desc("cmd.admin.take.opt.amount.description"),
        reason=desc("cmd.admin.take.opt.reason.description"),
    )
    @app_commands.autocomplete(currency=currency_choices)
    async def take(
        self,
        interaction: discord.Interaction[Any],
        player: discord.User,
        currency: app_commands.Range[str, 1, 50],
        amount: Amount,
        reason: Reason,
    ) -> None:
        await self._change_wallet(interaction, player, currency, amount, reason, take=True)

    @app_commands.command(name="give-card", description=desc("cmd.admin.give-card.description"))
    @app_commands.describe(
        player=desc("cmd.admin.give-card.opt.player.description"),
        card=desc("cmd.admin.give-card.opt.card.description"),
        reason=desc("cmd.admin.give-card.opt.reason.description"),
    )
    @app_commands.autocomplete(card=card_choices)
    async def give_card(
        self,
        interaction: discord.Interaction[Any],
        player: discord.User,
        card: app_commands.Range[str, 1, 100],
        reason: Reason,
    ) -> None:
        actor = require_owner(interaction)
        locale = await locale_of(interaction)
        services = services_of(interaction)
        ref = services.cards.resolve(card, locale)
        if ref is None:
            raise NotFound("error.card_not_found", name=echo(card))
        copy = await services.admin.give_card(actor, player.id, ref.game, ref.card_id, reason)
        await self._reply(
            interaction,
            t("admin.card_given", locale, card=ref.name_in(locale), copy=copy, name=player.mention),
        )

    @app_commands.command(name="remove-card", description=desc("cmd.admin.remove-card.description"))
    @app_commands.describe(
        player=desc("cmd.admin.remove-card.opt.player.description"),
        copy=desc("cmd.admin.remove-card.opt.copy.description"),
        reason=desc("cmd.admin.remove-card.opt.reason.description"),
    )
    async def remove_card(
        self,
        interaction: discord.Interaction[Any],
        player: discord.User,
        copy: Id,
        reason: Reason,
    ) -> None:
        actor = require_owner(interaction)
        locale = await locale_of(interaction)
        removed = await services_of(interaction).admin.remove_card(actor, player.id, copy, reason)
        await self._reply(
            interaction, t("admin.card_removed", locale, card=removed, copy=copy, name=player.mention)
        )

    @app_commands.command(name="reset", description=desc("cmd.admin.reset.description"))
    @app_commands.describe(
        player=desc("cmd.admin.reset.opt.player.description"),
        game=desc("cmd.admin.reset.opt.game.description"),
        reason=desc("cmd.admin.reset.opt.reason.description"),
    )
    @app_commands.autocomplete(game=game_choices)
    async def reset(
        self,
        interaction: discord.Interaction[Any],
        player: discord.User,
        game: app_commands.Range[str, 1, 50],
        reason: Reason,
    ) -> None:
        actor = require_owner(interaction)
        locale = await locale_of(interaction)
        report = await services_of(interaction).admin.reset(actor, player.id, game, reason)
        spec = services_of(interaction).registry.get(game)
        name = t(spec.name_key, locale) if spec is not None else game
        await self._reply(
            interaction, t("admin.reset_done", locale, game=name, name=player.mention, cards=report.cards)
        )

    @app_commands.command(name="ledger", description=desc("cmd.admin.ledger.description"))
    @app_commands.describe(
        player=desc("cmd.admin.ledger.opt.player.description"),
        page=desc("cmd.admin.ledger.opt.page.description"),
    )
    async def ledger(
        self,
        interaction: discord.Interaction[Any],
        player: discord.User,
        page: app_commands.Range[int, 1, 100_000] = 1,
    ) -> None:
        actor = require_owner(interaction)
        locale = await locale_of(interaction)
        shown = await services_of(interaction).admin.ledger_page(actor, player.id, page)
        await self._reply(interaction, fit(ledger_text(shown, player.display_name, locale), locale))


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(AdminCog(bot))
