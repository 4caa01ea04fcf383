"""/hoss arena …: registering for this week's Arena with two decks, attacking, the standings, and the
« Abandonner » button of an Arena battle.

The Arena belongs to the server where the command is used (services/hoss/arena/seasons.py decides everything
else). An attack's battle is a HOSS battle: its public message, private decision controls, deadline and
skip are the ranked battles' (cogs/hoss/battle.py); only its « Abandonner » button is answered here.

| custom_id | what |
|---|---|
| `hoss:aquit:<owner>:<battle>` | abandon the Arena battle: it counts as a loss (battle message) |

`/hoss arena verify week:<a day of the week>` recomputes a closed season's opponent draws from its
revealed seed (engine/hoss/arena_draws.py) and attaches the record, which `scripts/verify_raffle.py`
checks without the bot.
"""

from __future__ import annotations

import io
from typing import Any

import discord
from discord import app_commands

from cogs.hoss.battle import show_battle
from cogs.hoss.lookup import hoss_of
from cogs.hoss.raffle import parse_day
from cogs.shared.components import check_owner, reply
from cogs.shared.mixins import CommandsMixin, send
from core.errors import BadInput, NotAllowed
from discord_app.components import PersistentButton
from discord_app.context import locale_of
from discord_app.permissions import BATTLE_MESSAGE, require_here
from discord_app.render import text
from discord_app.translator import desc
from engine.hoss import format_season
from services.hoss.arena.verify import ArenaVerification
from services.hoss.render.arena import registration_spec, standings_spec
from services.hoss.render.decks import problem_text
from services.infra.messages import Day, MessageSpec, Text
from services.shared.collecting import DeckInvalid
from services.shared.render.problems import listing

Slot = app_commands.Range[int, 1, 4]
REFUSED_LIMIT = 25  # every reason of a refused registration (12 incomplete lines and more fit a message)


def guild_of(interaction: discord.Interaction[Any]) -> int:
    if interaction.guild_id is None:
        raise NotAllowed("hoss.arena.error.guild_only")
    return interaction.guild_id


VERDICT_KEYS = {
    "ok": "hoss.arena.verify.ok",
    "commitment": "hoss.arena.verify.commitment",
    "opponents": "hoss.arena.verify.opponents",
    "erased": "hoss.arena.verify.erased",
}


def verification_reply(result: ArenaVerification) -> tuple[MessageSpec, discord.File]:
    record, season = result.record, result.season.isoformat()
    spec = MessageSpec(
        content=Text(
            f"hoss.arena.verify.{result.verdict.reason}",
            {"season": Day(result.season), "attacks": len(record.attacks)},
        )
    )
    body = format_season(record, comments=[f"HOSS Arena, server {result.guild_id}, week of {season}"])
    return spec, discord.File(io.BytesIO(body.encode()), filename=f"arene-{season}.txt")


class AbandonButton(PersistentButton, template=r"hoss:aquit:(?P<owner>\d+):(?P<battle>\d+)"):
    """« Un combat abandonné compte comme une défaite »: the owner's live Arena battle, in its server."""

    async def on_click(self, interaction: discord.Interaction[Any], locale: str) -> None:
        check_owner(self.match, interaction)
        await hoss_of(interaction).arena.forfeit(
            interaction.user.id, int(self.match["battle"]), interaction.guild_id
        )
        # The battle is over: its buttons go now, and the outbox shows the result on this message.
        await interaction.response.edit_message(view=None)


class ArenaCommands(CommandsMixin):
    arena = app_commands.Group(name="arena", description=desc("cmd.hoss.arena.description"))

    @arena.command(name="register", description=desc("cmd.hoss.arena.register.description"))
    @app_commands.describe(
        deck_a=desc("cmd.hoss.arena.register.opt.deck_a.description"),
        deck_b=desc("cmd.hoss.arena.register.opt.deck_b.description"),
    )
    @app_commands.guild_only()
    async def arena_register(self, interaction: discord.Interaction[Any], deck_a: Slot, deck_b: Slot) -> None:
        """Register with the attack deck (slot A) and the defence deck (slot B), or save them again."""
        locale = await locale_of(interaction)
        hoss = hoss_of(interaction)
        try:
            registration = await hoss.arena.register(
                guild_of(interaction), interaction.user.id, deck_a, deck_b
            )
        except DeckInvalid as exc:  # every reason at once: the handler would show only the first
            decks = hoss.decks
            reasons = [
                Text.raw("• " + text(problem_text(p, decks.catalog, decks.first, locale), locale))
                for p in exc.problems
            ]
            raise BadInput("hoss.arena.error.refused", reasons=listing(reasons, REFUSED_LIMIT)) from exc
        await send(interaction, registration_spec(registration, (deck_a, deck_b)), locale)

    @arena.command(name="attack", description=desc("cmd.hoss.arena.attack.description"))
    @app_commands.guild_only()
    async def arena_attack(self, interaction: discord.Interaction[Any]) -> None:
        """Draw an opponent and start the battle against their defence deck: the public battle message."""
        await locale_of(interaction)  # the player's first command creates them
        require_here(interaction, BATTLE_MESSAGE)
        started = await hoss_of(interaction).arena.attack(
            guild_of(interaction), interaction.user.id, key=interaction.id
        )
        await show_battle(interaction, started.battle_id, started.message)

    @arena.command(name="cancel", description=desc("cmd.hoss.arena.cancel.description"))
    @app_commands.guild_only()
    async def arena_cancel(self, interaction: discord.Interaction[Any]) -> None:
        """Put the registered decks back into their slots (« tu annules les changements »)."""
        locale = await locale_of(interaction)
        attack, defence = await hoss_of(interaction).arena.cancel_changes(
            guild_of(interaction), interaction.user.id
        )
        spec = MessageSpec(content=Text("hoss.arena.cancelled", {"attack": attack, "defence": defence}))
        await send(interaction, spec, locale)

    @arena.command(name="verify", description=desc("cmd.hoss.arena.verify.description"))
    @app_commands.describe(week=desc("cmd.hoss.arena.verify.opt.week.description"))
    @app_commands.guild_only()
    async def arena_verify(
        self, interaction: discord.Interaction[Any], week: app_commands.Range[str, 1, 20]
    ) -> None:
        """A closed season's opponent draws recomputed, with the record to check them anywhere."""
        locale = await locale_of(interaction)
        result = await hoss_of(interaction).arena.verify(
            guild_of(interaction), parse_day(week, "hoss.arena.error.week")
        )
        spec, file = verification_reply(result)
        await interaction.response.send_message(**reply(spec, locale, None), file=file, ephemeral=True)

    @arena.command(name="standings", description=desc("cmd.hoss.arena.standings.description"))
    @app_commands.guild_only()
    async def arena_standings(self, interaction: discord.Interaction[Any]) -> None:
        locale = await locale_of(interaction)
        standings = await hoss_of(interaction).arena.standing_of(guild_of(interaction), interaction.user.id)
        await send(interaction, standings_spec(standings, interaction.user.id, locale), locale)


ARENA_ITEMS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (AbandonButton,)
