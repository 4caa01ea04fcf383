"""/setup: a server's channels and default turn deadline, for people who can manage the server."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from cogs.choco.lookup import choco_of
from cogs.pillz.duel import pillz_of
from core.errors import BadInput
from core.i18n import t
from discord_app.context import locale_of, services_of
from discord_app.permissions import missing_in
from discord_app.render import text
from discord_app.translator import choice, desc
from services.choco.leagues import ChocoSettings
from services.platform.channel_permissions import permission_list
from services.platform.guild_settings import GuildSettings


def require_manage_guild(interaction: discord.Interaction[Any]) -> None:
    """`default_permissions` only hides the command; server admins can re-grant it, so check at run time too."""
    if interaction.guild is None:
        raise app_commands.NoPrivateMessage()
    if not interaction.permissions.manage_guild:
        raise app_commands.MissingPermissions(["manage_guild"])


# What the bot does in each channel /setup names: announcements are posts with embeds; the games channel
# holds the Chocobataille threads (opened, posted in with embeds, archived when the game ends).
CHANNEL_NEEDS = {
    "announce_channel_id": ("view_channel", "send_messages", "embed_links"),
    "games_channel_id": (
        "view_channel",
        "create_public_threads",
        "send_messages_in_threads",
        "manage_threads",
        "embed_links",
    ),
}


def permissions_line(
    interaction: discord.Interaction[Any], channel: discord.TextChannel, needs: tuple[str, ...], locale: str
) -> str:
    missing = missing_in(interaction, needs, channel)
    if not missing:
        return t("setup.permissions_ok", locale, channel=channel.mention)
    return t(
        "setup.permissions_missing",
        locale,
        channel=channel.mention,
        permissions=text(permission_list(missing), locale),
    )


def summary(settings: GuildSettings, locale: str) -> str:
    unset = t("setup.unset", locale)
    return t(
        "setup.summary",
        locale,
        announce=f"<#{settings.announce_channel_id}>" if settings.announce_channel_id else unset,
        games=f"<#{settings.games_channel_id}>" if settings.games_channel_id else unset,
        preset=t(f"choice.deadline.{settings.deadline_preset}", locale),
    )


def parse_reminders(value: str) -> list[int]:
    """ "12, 1" → [12, 1]; empty → no reminder. The service checks the range."""
    parts = [p for p in value.replace(";", ",").split(",") if p.strip()]
    if not all(p.strip().rstrip("hH").strip().isdigit() for p in parts):
        raise BadInput("setup.bad_reminders", value=value[:40])
    return [int(p.strip().rstrip("hH").strip()) for p in parts]


def choco_summary(settings: ChocoSettings, locale: str) -> str:
    return t(
        "setup.choco_summary",
        locale,
        role=f"<@&{settings.referee_role_id}>" if settings.referee_role_id else t("setup.no_role", locale),
        days=settings.min_member_days,
        reminders=", ".join(f"{h} h" for h in settings.reminder_hours) or "—",
        absence=settings.absence_cap_hours // 24,
        forgive=t("setup.yes" if settings.forgive_downtime else "setup.no", locale),
    )


@app_commands.guild_only()
@app_commands.default_permissions(manage_guild=True)
class SetupCog(commands.GroupCog, group_name="setup", group_description=desc("cmd.setup.description")):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        super().__init__()

    async def _update(
        self,
        interaction: discord.Interaction[Any],
        column: str,
        value: int | str | None,
        channel: discord.TextChannel | None = None,
    ) -> None:
        """With a channel: saved, then what the bot lacks there is listed (the admin may fix it after)."""
        require_manage_guild(interaction)
        locale = await locale_of(interaction)
        assert interaction.guild_id is not None
        announcement = channel is not None and channel.type is discord.ChannelType.news
        settings = await services_of(interaction).guilds.update(
            interaction.guild_id, column, value, announcement=announcement
        )
        lines = [t("setup.saved", locale), summary(settings, locale)]
        if channel is not None:
            lines.append(permissions_line(interaction, channel, CHANNEL_NEEDS[column], locale))
        await interaction.response.send_message("\n".join(lines), ephemeral=True)

    @app_commands.command(name="announcements", description=desc("cmd.setup.announcements.description"))
    @app_commands.describe(channel=desc("cmd.setup.announcements.opt.channel.description"))
    async def announcements(
        self, interaction: discord.Interaction[Any], channel: discord.TextChannel
    ) -> None:
        await self._update(interaction, "announce_channel_id", channel.id, channel)

    @app_commands.command(name="games-channel", description=desc("cmd.setup.games-channel.description"))
    @app_commands.describe(channel=desc("cmd.setup.games-channel.opt.channel.description"))
    async def games_channel(
        self, interaction: discord.Interaction[Any], channel: discord.TextChannel
    ) -> None:
        await self._update(interaction, "games_channel_id", channel.id, channel)

    @app_commands.command(name="deadline", description=desc("cmd.setup.deadline.description"))
    @app_commands.describe(preset=desc("cmd.setup.deadline.opt.preset.description"))
    @app_commands.choices(
        preset=[choice("deadline", "fast"), choice("deadline", "standard"), choice("deadline", "relaxed")]
    )
    async def deadline(self, interaction: discord.Interaction[Any], preset: app_commands.Choice[str]) -> None:
        await self._update(interaction, "deadline_preset", preset.value)

    @app_commands.command(name="referee-role", description=desc("cmd.setup.referee-role.description"))
    @app_commands.describe(role=desc("cmd.setup.referee-role.opt.role.description"))
    async def referee_role(
        self, interaction: discord.Interaction[Any], role: discord.Role | None = None
    ) -> None:
        await self._choco(interaction, referee_role_id=None if role is None else role.id)

    @app_commands.command(name="choco", description=desc("cmd.setup.choco.description"))
    @app_commands.describe(
        member_days=desc("cmd.setup.choco.opt.member_days.description"),
        reminders=desc("cmd.setup.choco.opt.reminders.description"),
        absence_days=desc("cmd.setup.choco.opt.absence_days.description"),
        forgive_downtime=desc("cmd.setup.choco.opt.forgive_downtime.description"),
    )
    async def choco(
        self,
        interaction: discord.Interaction[Any],
        member_days: app_commands.Range[int, 0, 365] | None = None,
        reminders: app_commands.Range[str, 0, 40] | None = None,
        absence_days: app_commands.Range[int, 0, 90] | None = None,
        forgive_downtime: bool | None = None,
    ) -> None:
        fields: dict[str, Any] = {}
        if member_days is not None:
            fields["min_member_days"] = member_days
        if reminders is not None:
            fields["reminder_hours"] = parse_reminders(reminders)
        if absence_days is not None:
            fields["absence_cap_hours"] = absence_days * 24
        if forgive_downtime is not None:
            fields["forgive_downtime"] = forgive_downtime
        await self._choco(interaction, **fields)

    async def _choco(self, interaction: discord.Interaction[Any], **fields: Any) -> None:
        """Chocobataille's server settings (services/choco/leagues.py checks every value)."""
        require_manage_guild(interaction)
        locale = await locale_of(interaction)
        assert interaction.guild_id is not None
        leagues = choco_of(interaction).economy.leagues
        saved = await leagues.update_settings(interaction.guild_id, **fields)
        await interaction.response.send_message(
            t("setup.saved", locale) + "\n" + choco_summary(saved, locale), ephemeral=True
        )

    @app_commands.command(name="pillz", description=desc("cmd.setup.pillz.description"))
    @app_commands.describe(seconds=desc("cmd.setup.pillz.opt.seconds.description"))
    async def pillz(
        self, interaction: discord.Interaction[Any], seconds: app_commands.Range[int, 30, 3600]
    ) -> None:
        """The time a Pillz player has for each choice before the AI chooses for them."""
        require_manage_guild(interaction)
        locale = await locale_of(interaction)
        assert interaction.guild_id is not None
        saved = await pillz_of(interaction).duels.set_choice_time(interaction.guild_id, seconds)
        await interaction.response.send_message(
            t("setup.saved", locale) + "\n" + t("setup.pillz_summary", locale, seconds=saved), ephemeral=True
        )

    @app_commands.command(name="show", description=desc("cmd.setup.show.description"))
    async def show(self, interaction: discord.Interaction[Any]) -> None:
        require_manage_guild(interaction)
        locale = await locale_of(interaction)
        assert interaction.guild_id is not None
        settings = await services_of(interaction).guilds.get(interaction.guild_id)
        choco = await choco_of(interaction).economy.leagues.settings(interaction.guild_id)
        seconds = await pillz_of(interaction).duels.choice_seconds(interaction.guild_id)
        await interaction.response.send_message(
            "\n".join(
                [
                    summary(settings, locale),
                    choco_summary(choco, locale),
                    t("setup.pillz_summary", locale, seconds=seconds),
                ]
            ),
            ephemeral=True,
        )


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(SetupCog(bot))
