"""/setup: a server's channels, default turn deadline and public language, its bans and paused games,
and the audit log of every admin action there, for people who can manage the server (docs/admin.md).

The games add their own subcommands to this group (cogs/shared/setup.py): this module names no game."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from cogs.platform.admin import game_choices
from cogs.shared.setup import attach_all, require_manage_guild, sections
from core.i18n import DEFAULT_LOCALE, t
from discord_app.context import locale_of, public_locale_of, services_of
from discord_app.errors import fit
from discord_app.permissions import missing_in
from discord_app.render import text
from discord_app.translator import choice, desc
from services.community.admin import Actor, AuditLine, Page
from services.infra.channel_permissions import permission_list
from services.infra.games import GameRegistry
from services.infra.guild_settings import GuildSettings

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
        language=t(f"choice.language.{settings.locale or DEFAULT_LOCALE}", locale),
    )


# The audit log's action codes (services/community/admin.py) and their labels.
ACTION_KEYS = {
    "grant": "admin.action.grant",
    "take": "admin.action.take",
    "give_card": "admin.action.give_card",
    "remove_card": "admin.action.remove_card",
    "reset": "admin.action.reset",
    "ledger_view": "admin.action.ledger_view",
    "ban": "admin.action.ban",
    "unban": "admin.action.unban",
    "pause": "admin.action.pause",
    "resume": "admin.action.resume",
}


# The audit log's details (services/community/admin.py `write_audit`), named in the reader's language.
DETAIL_KEYS = {
    "amount": "admin.detail.amount",
    "card": "admin.detail.card",
    "copy": "admin.detail.copy",
    "currency": "admin.detail.currency",
    "game": "admin.detail.game",
    "page": "admin.detail.page",
    "reason": "admin.detail.reason",
    "target": "admin.detail.target",
}


def audit_text(page: Page[AuditLine], locale: str, registry: GameRegistry) -> str:
    lines = [t("admin.audit.title", locale, page=page.page, pages=page.pages)]
    for line in page.lines:
        spec = registry.get(line.game) if line.game else None
        details = " · ".join(
            t(
                "admin.audit.detail",
                locale,
                label=t(DETAIL_KEYS[k], locale) if k in DETAIL_KEYS else k,
                value=v,
            )
            for k, v in sorted(line.details.items())
        )
        lines.append(
            t(
                "admin.audit.line",
                locale,
                id=line.id,
                at=f"<t:{int(line.at.timestamp())}:f>",
                actor=f"<@{line.actor_id}>",
                action=t(ACTION_KEYS.get(line.action, "admin.action.other"), locale),
                target=f"<@{line.target_id}>" if line.target_id is not None else "—",
                game=t(spec.name_key, locale) if spec is not None else "—",
                details=details or "—",
            )
        )
    if not page.lines:
        lines.append(t("admin.audit.empty", locale))
    return "\n".join(lines)


def manager(interaction: discord.Interaction[Any]) -> Actor:
    """A server manager acting in their server: the bans, pauses and log they change are this server's."""
    require_manage_guild(interaction)
    return Actor(interaction.user.id, interaction.guild_id, interaction.id)


@app_commands.guild_only()
@app_commands.default_permissions(manage_guild=True)
class SetupCog(commands.GroupCog, group_name="setup", group_description=desc("cmd.setup.description")):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        super().__init__()

    async def cog_load(self) -> None:
        group = self.app_command
        assert group is not None  # a GroupCog is its group
        attach_all(self.bot, group)

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
        await public_locale_of(interaction)  # the server's Discord language, remembered before a change
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

    @app_commands.command(name="language", description=desc("cmd.setup.language.description"))
    @app_commands.describe(language=desc("cmd.setup.language.opt.language.description"))
    @app_commands.choices(language=[choice("language", "fr"), choice("language", "en")])
    async def language(
        self, interaction: discord.Interaction[Any], language: app_commands.Choice[str]
    ) -> None:
        """The language of every public post here from now on; private replies keep each player's."""
        await self._update(interaction, "locale", language.value)

    @app_commands.command(name="show", description=desc("cmd.setup.show.description"))
    async def show(self, interaction: discord.Interaction[Any]) -> None:
        require_manage_guild(interaction)
        locale = await locale_of(interaction)
        await public_locale_of(interaction)
        assert interaction.guild_id is not None
        settings = await services_of(interaction).guilds.get(interaction.guild_id)
        lines = [summary(settings, locale)]
        lines += [await section.summary(interaction, locale) for section in sections(self.bot)]
        await interaction.response.send_message("\n".join(lines), ephemeral=True)

    @app_commands.command(name="ban", description=desc("cmd.setup.ban.description"))
    @app_commands.describe(
        player=desc("cmd.setup.ban.opt.player.description"),
        reason=desc("cmd.setup.ban.opt.reason.description"),
    )
    async def ban(
        self,
        interaction: discord.Interaction[Any],
        player: discord.User,
        reason: app_commands.Range[str, 1, 200],
    ) -> None:
        actor = manager(interaction)
        locale = await locale_of(interaction)
        await services_of(interaction).admin.ban(actor, player.id, reason)
        await interaction.response.send_message(
            t("admin.banned_done", locale, name=player.mention), ephemeral=True
        )

    @app_commands.command(name="unban", description=desc("cmd.setup.unban.description"))
    @app_commands.describe(player=desc("cmd.setup.unban.opt.player.description"))
    async def unban(self, interaction: discord.Interaction[Any], player: discord.User) -> None:
        actor = manager(interaction)
        locale = await locale_of(interaction)
        await services_of(interaction).admin.unban(actor, player.id)
        await interaction.response.send_message(
            t("admin.unbanned_done", locale, name=player.mention), ephemeral=True
        )

    async def _pause(self, interaction: discord.Interaction[Any], game: str, *, paused: bool) -> None:
        actor = manager(interaction)
        locale = await locale_of(interaction)
        await services_of(interaction).admin.pause(actor, game, paused=paused)
        spec = services_of(interaction).registry.get(game)
        name = t(spec.name_key, locale) if spec is not None else game
        key = "admin.paused_done" if paused else "admin.resumed_done"
        await interaction.response.send_message(t(key, locale, game=name), ephemeral=True)

    @app_commands.command(name="pause", description=desc("cmd.setup.pause.description"))
    @app_commands.describe(game=desc("cmd.setup.pause.opt.game.description"))
    @app_commands.autocomplete(game=game_choices)
    async def pause(
        self, interaction: discord.Interaction[Any], game: app_commands.Range[str, 1, 50]
    ) -> None:
        await self._pause(interaction, game, paused=True)

    @app_commands.command(name="resume", description=desc("cmd.setup.resume.description"))
    @app_commands.describe(game=desc("cmd.setup.resume.opt.game.description"))
    @app_commands.autocomplete(game=game_choices)
    async def resume(
        self, interaction: discord.Interaction[Any], game: app_commands.Range[str, 1, 50]
    ) -> None:
        await self._pause(interaction, game, paused=False)

    @app_commands.command(name="audit", description=desc("cmd.setup.audit.description"))
    @app_commands.describe(page=desc("cmd.setup.audit.opt.page.description"))
    async def audit(
        self, interaction: discord.Interaction[Any], page: app_commands.Range[int, 1, 100_000] = 1
    ) -> None:
        require_manage_guild(interaction)
        locale = await locale_of(interaction)
        assert interaction.guild_id is not None
        shown = await services_of(interaction).admin.audit_page(interaction.guild_id, page)
        await interaction.response.send_message(
            fit(audit_text(shown, locale, services_of(interaction).registry), locale), ephemeral=True
        )


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(SetupCog(bot))
