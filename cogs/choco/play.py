"""/choco commands of a refereed game: challenge, hand, text declaration, guided panel, absence, forfeit.

The cog parses, calls services/choco/games.py or choco_panel.py, and renders; the buttons and selects
(cogs/choco/components.py) do the same. A game's thread is created here, because it is a Discord act,
right after the service created the game; the service then deals the hands and starts the clock.
Commands used in a game's thread act on that game; elsewhere, on the player's only live game.

| custom_id | what |
|---|---|
| `choco:accept:<challenge>` / `choco:decline:<challenge>` | answer a challenge (the challenger may withdraw) |
| `choco:hand:<game>` | the clicking player's hand, privately |
| `choco:panel:<game>` | open the guided panel privately |
| `choco:pick:<game>:<version>:<b or c>` (select) | add one step to the panel's draft |
| `choco:undo|clear|submit:<game>:<version>` | edit or send the draft |
| `choco:forfeit:<game>:<player>` | confirm a voluntary forfeit |
"""

from __future__ import annotations

import re
from typing import Any

import discord
from discord import app_commands

from cogs.choco.components import (
    absence_text,
    challenge_reply,
    declared_text,
    forfeit_confirm,
    games_text,
    hand_reply,
    open_game_thread,
    panel_reply,
)
from cogs.choco.economy import LEAGUE_CHOICES
from cogs.choco.lookup import choco_of, here, member_since
from cogs.shared.mixins import CommandsMixin
from core.errors import BadInput
from core.i18n import t
from core.message_guard import echo
from discord_app.context import locale_of, public_locale_of
from discord_app.deferral import defer_reply, reply
from discord_app.permissions import require_game_thread
from discord_app.translator import desc

DURATION = re.compile(r"^\s*(?:(\d{1,3})\s*[jd])?\s*(?:(\d{1,4})\s*h)?\s*$", re.IGNORECASE)


def parse_hours(value: str) -> int:
    """`3j`, `2d`, `48h`, `1j12h` (French or English units) as hours."""
    match = DURATION.match(value)
    if not match or not any(match.groups()):
        raise BadInput("choco.error.duration", value=echo(value, 40))
    days, hours = (int(g) if g else 0 for g in match.groups())
    return days * 24 + hours


class ChocoPlayCommands(CommandsMixin):
    """Mixed into the /choco GroupCog (cogs/choco/cog.py)."""

    @app_commands.command(name="challenge", description=desc("cmd.choco.challenge.description"))
    @app_commands.describe(
        player=desc("cmd.choco.challenge.opt.player.description"),
        league=desc("cmd.choco.challenge.opt.league.description"),
    )
    @app_commands.choices(league=LEAGUE_CHOICES)
    @app_commands.guild_only()
    async def challenge(
        self, interaction: discord.Interaction[Any], player: discord.User, league: app_commands.Choice[str]
    ) -> None:
        await self._challenge(interaction, player, league.value, friendly=False)

    @app_commands.command(
        name="friendly-challenge", description=desc("cmd.choco.friendly-challenge.description")
    )
    @app_commands.describe(
        player=desc("cmd.choco.friendly-challenge.opt.player.description"),
        league=desc("cmd.choco.friendly-challenge.opt.league.description"),
    )
    @app_commands.choices(league=LEAGUE_CHOICES)
    @app_commands.guild_only()
    async def friendly(
        self, interaction: discord.Interaction[Any], player: discord.User, league: app_commands.Choice[str]
    ) -> None:
        """A friendly game (docs/choco/practice.md): the league's cards without its entry, nothing counted."""
        await self._challenge(interaction, player, league.value, friendly=True)

    async def _challenge(
        self, interaction: discord.Interaction[Any], player: discord.User, league: str, *, friendly: bool
    ) -> None:
        """A ranked or friendly challenge: the same checks and public message, one flag apart."""
        await locale_of(interaction)  # the player (their first command creates them) and their language
        if player.bot:
            raise BadInput("choco.error.bot_opponent")
        await require_game_thread(interaction)
        assert interaction.guild_id is not None
        assert interaction.channel_id is not None
        made = await choco_of(interaction).games.challenge(
            interaction.guild_id,
            interaction.channel_id,
            interaction.user.id,
            player.id,
            league,
            key=interaction.id,
            joined_at=member_since(interaction),
            friendly=friendly,
        )
        await interaction.response.send_message(**challenge_reply(made, await public_locale_of(interaction)))

    @app_commands.command(name="practice", description=desc("cmd.choco.practice.description"))
    @app_commands.describe(league=desc("cmd.choco.practice.opt.league.description"))
    @app_commands.choices(league=LEAGUE_CHOICES)
    @app_commands.guild_only()
    async def practice(
        self, interaction: discord.Interaction[Any], league: app_commands.Choice[str] | None = None
    ) -> None:
        """A practice game against the bot, in its own thread, opened here as an accepted challenge's."""
        locale = await locale_of(interaction)
        await require_game_thread(interaction)
        assert interaction.guild_id is not None
        assert interaction.channel_id is not None
        choco = choco_of(interaction)
        game = await choco.practice.start(
            interaction.guild_id,
            interaction.channel_id,
            interaction.user.id,
            "bronze" if league is None else league.value,
            key=interaction.id,
        )
        if game.turn_started_at is None and await choco.games.claim_thread(game.id, str(interaction.id)):
            await defer_reply(interaction)  # creating the thread waits on Discord
            thread = await open_game_thread(interaction, game, await public_locale_of(interaction))
            game = await choco.games.open_thread(game.id, thread)
        content = t("choco.practice.started", locale, game=game.id, where=f"<#{game.where}>")
        await reply(interaction, content=content)

    @app_commands.command(name="games", description=desc("cmd.choco.games.description"))
    async def games(self, interaction: discord.Interaction[Any]) -> None:
        locale = await locale_of(interaction)
        rows = await choco_of(interaction).games.live_games(interaction.user.id, interaction.guild_id)
        await interaction.response.send_message(games_text(rows, interaction.user.id, locale), ephemeral=True)

    @app_commands.command(name="hand", description=desc("cmd.choco.hand.description"))
    async def hand(self, interaction: discord.Interaction[Any]) -> None:
        locale = await locale_of(interaction)
        game = await here(interaction)
        await interaction.response.send_message(**await hand_reply(interaction, game, locale), ephemeral=True)

    @app_commands.command(name="play", description=desc("cmd.choco.play.description"))
    @app_commands.describe(actions=desc("cmd.choco.play.opt.actions.description"))
    async def play(
        self, interaction: discord.Interaction[Any], actions: app_commands.Range[str, 1, 1000]
    ) -> None:
        locale = await locale_of(interaction)
        result = await choco_of(interaction).games.declare_here(
            interaction.channel_id, interaction.user.id, actions, interaction.guild_id
        )
        await interaction.response.send_message(declared_text(result, locale), ephemeral=True)

    @app_commands.command(name="panel", description=desc("cmd.choco.panel.description"))
    async def panel(self, interaction: discord.Interaction[Any]) -> None:
        locale = await locale_of(interaction)
        game = await here(interaction)
        shown = await choco_of(interaction).panel.show(game, interaction.user.id, interaction.guild_id)
        await interaction.response.send_message(**panel_reply(shown, locale), ephemeral=True)

    @app_commands.command(name="absence", description=desc("cmd.choco.absence.description"))
    @app_commands.describe(
        duration=desc("cmd.choco.absence.opt.duration.description"),
        reason=desc("cmd.choco.absence.opt.reason.description"),
    )
    async def absence(
        self,
        interaction: discord.Interaction[Any],
        duration: app_commands.Range[str, 1, 20],
        reason: app_commands.Range[str, 1, 200],
    ) -> None:
        locale = await locale_of(interaction)
        hours = parse_hours(duration)
        games = choco_of(interaction).games
        recorded = await games.absence(
            interaction.channel_id, interaction.user.id, hours, reason, interaction.guild_id
        )
        await interaction.response.send_message(absence_text(recorded, locale), ephemeral=True)

    @app_commands.command(name="forfeit", description=desc("cmd.choco.forfeit.description"))
    async def forfeit(self, interaction: discord.Interaction[Any]) -> None:
        locale = await locale_of(interaction)
        game = await here(interaction)
        await interaction.response.send_message(
            **forfeit_confirm(game, interaction.user.id, locale), ephemeral=True
        )
