"""/hoss raffle …: the daily raffle's window, its 🎟️ ticket button, and the check of a published draw;
and « Vérifier », the button of the raffle's and the Arena's posts that shows their provably-fair
details (services/hoss/proofs.py).

The raffle belongs to the server where the command or button is used (services/hoss/raffle.py decides
everything else: the 19:59 close, one ticket a day across servers, the draw). Replies are private; the
commitment and the results are posted by the service through the outbox.
"""

from __future__ import annotations

import io
import re
from datetime import date
from typing import Any

import discord
from discord import app_commands

from cogs.hoss.lookup import hoss_of
from cogs.shared.components import button, reply
from cogs.shared.mixins import CommandsMixin
from core.errors import BadInput, NotAllowed
from discord_app.components import PersistentButton
from discord_app.context import locale_of
from discord_app.translator import desc
from engine import fair_draw
from services.hoss import proofs
from services.hoss.raffle import RaffleWindow, Verification, published
from services.hoss.render.raffle import ticket_spec, window_spec
from services.infra.messages import Day, MessageSpec, Number, Text

BUY_ID = "hoss:raffle:buy"
VERDICT_KEYS = {
    "ok": "hoss.raffle.verify.ok",
    "commitment": "hoss.raffle.verify.commitment",
    "digest": "hoss.raffle.verify.digest",
    "winners": "hoss.raffle.verify.winners",
    "erased": "hoss.raffle.verify.erased",
}
DAY_FORMAT = re.compile(r"^\d{4}-\d{2}-\d{2}$")


def guild_of(interaction: discord.Interaction[Any]) -> int:
    if interaction.guild_id is None:
        raise NotAllowed("hoss.raffle.error.guild_only")
    return interaction.guild_id


def parse_day(raw: str, error: str = "hoss.raffle.error.day") -> date:
    value = raw.strip()
    try:
        if DAY_FORMAT.match(value):
            return date.fromisoformat(value)
    except ValueError:
        pass
    raise BadInput(error)


def window_reply(window: RaffleWindow, locale: str) -> dict[str, Any]:
    view = discord.ui.View(timeout=None)
    view.add_item(
        button(
            RaffleBuyButton,
            BUY_ID,
            Text("hoss.raffle.button.buy"),
            locale,
            "success",
            disabled=window.has_ticket or not window.open,
        )
    )
    return reply(window_spec(window, locale), locale, view)


def verification_reply(result: Verification, locale: str) -> tuple[MessageSpec, discord.File]:
    record = result.record
    spec = MessageSpec(
        content=Text(
            VERDICT_KEYS[result.verdict.reason],
            {"day": Day(record.day), "tickets": Number(record.tickets)},
        )
    )
    body = fair_draw.format_published(
        published(record),
        comments=[f"HOSS raffle, server {record.guild_id}, draw of {record.day.isoformat()}"],
    )
    file = discord.File(io.BytesIO(body.encode()), filename=f"tombola-{record.day.isoformat()}.txt")
    return spec, file


async def buy_reply(interaction: discord.Interaction[Any], locale: str, key: str) -> None:
    ticket = await hoss_of(interaction).raffle.buy(guild_of(interaction), interaction.user.id, key=key)
    await interaction.response.send_message(
        **reply(ticket_spec(ticket, locale), locale, None), ephemeral=True
    )


class RaffleBuyButton(PersistentButton, template=r"hoss:raffle:buy"):
    """🎟️ on the raffle window and on the raffle's posts: a ticket in this server's raffle."""

    async def on_click(self, interaction: discord.Interaction[Any], locale: str) -> None:
        message = interaction.message.id if interaction.message is not None else interaction.id
        await buy_reply(interaction, locale, f"{message}:{interaction.user.id}")


class RaffleCommands(CommandsMixin):
    raffle = app_commands.Group(name="raffle", description=desc("cmd.hoss.raffle.description"))

    @raffle.command(name="show", description=desc("cmd.hoss.raffle.show.description"))
    @app_commands.guild_only()
    async def raffle_show(self, interaction: discord.Interaction[Any]) -> None:
        locale = await locale_of(interaction)
        window = await hoss_of(interaction).raffle.window(guild_of(interaction), interaction.user.id)
        await interaction.response.send_message(**window_reply(window, locale), ephemeral=True)

    @raffle.command(name="buy", description=desc("cmd.hoss.raffle.buy.description"))
    @app_commands.guild_only()
    async def raffle_buy(self, interaction: discord.Interaction[Any]) -> None:
        locale = await locale_of(interaction)
        await buy_reply(interaction, locale, str(interaction.id))

    @raffle.command(name="verify", description=desc("cmd.hoss.raffle.verify.description"))
    @app_commands.describe(day=desc("cmd.hoss.raffle.verify.opt.day.description"))
    @app_commands.guild_only()
    async def raffle_verify(
        self, interaction: discord.Interaction[Any], day: app_commands.Range[str, 1, 20]
    ) -> None:
        locale = await locale_of(interaction)
        result = await hoss_of(interaction).raffle.verify(guild_of(interaction), parse_day(day))
        spec, file = verification_reply(result, locale)
        await interaction.response.send_message(**reply(spec, locale, None), file=file, ephemeral=True)


class ProofButton(PersistentButton, template=r"hoss:proof:(?P<kind>raffle|arena):(?P<day>\d{8})"):
    """« Vérifier » on a raffle or Arena post: its provably-fair details, privately (this server's)."""

    async def on_click(self, interaction: discord.Interaction[Any], locale: str) -> None:
        hoss, guild, day = hoss_of(interaction), guild_of(interaction), proofs.day_of(self.match["day"])
        if self.match["kind"] == proofs.RAFFLE:
            proof = await hoss.raffle.proof(guild, day)
        else:
            proof = await hoss.arena.proof(guild, day)
        await interaction.response.send_message(
            **reply(proofs.proof_spec(proof), locale, None), ephemeral=True
        )


RAFFLE_ITEMS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (RaffleBuyButton, ProofButton)
