"""/setup choco and /setup referee-role: Chocobataille's settings on a server, a section of the platform's
/setup group (cogs/shared/setup.py); services/choco/leagues.py checks every value."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from cogs.choco.lookup import choco_of
from cogs.shared.setup import SetupCommand, SetupSection, require_manage_guild
from core.errors import BadInput
from core.i18n import t
from core.message_guard import echo
from discord_app.context import locale_of
from discord_app.translator import desc
from services.choco.leagues import ChocoSettings


def parse_reminders(value: str) -> list[int]:
    """ "12, 1" → [12, 1]; empty → no reminder. The service checks the range."""
    parts = [p for p in value.replace(";", ",").split(",") if p.strip()]
    if not all(p.strip().rstrip("hH").strip().isdigit() for p in parts):
        raise BadInput("choco.setup.bad_reminders", value=echo(value, 40))
    return [int(p.strip().rstrip("hH").strip()) for p in parts]


def choco_summary(settings: ChocoSettings, locale: str) -> str:
    no_role = t("choco.setup.no_role", locale)
    return t(
        "choco.setup.summary",
        locale,
        role=f"<@&{settings.referee_role_id}>" if settings.referee_role_id else no_role,
        days=settings.min_member_days,
        reminders=", ".join(f"{h} h" for h in settings.reminder_hours) or "—",
        absence=settings.absence_cap_hours // 24,
        forgive=t("choco.setup.yes" if settings.forgive_downtime else "choco.setup.no", locale),
    )


async def summary(interaction: discord.Interaction[Any], locale: str) -> str:
    assert interaction.guild_id is not None
    return choco_summary(await choco_of(interaction).economy.leagues.settings(interaction.guild_id), locale)


async def save(interaction: discord.Interaction[Any], **fields: Any) -> None:
    require_manage_guild(interaction)
    locale = await locale_of(interaction)
    assert interaction.guild_id is not None
    saved = await choco_of(interaction).economy.leagues.update_settings(interaction.guild_id, **fields)
    await interaction.response.send_message(
        t("setup.saved", locale) + "\n" + choco_summary(saved, locale), ephemeral=True
    )


@app_commands.describe(role=desc("cmd.setup.referee-role.opt.role.description"))
async def referee_role(interaction: discord.Interaction[Any], role: discord.Role | None = None) -> None:
    await save(interaction, referee_role_id=None if role is None else role.id)


@app_commands.describe(
    member_days=desc("cmd.setup.choco.opt.member_days.description"),
    reminders=desc("cmd.setup.choco.opt.reminders.description"),
    absence_days=desc("cmd.setup.choco.opt.absence_days.description"),
    forgive_downtime=desc("cmd.setup.choco.opt.forgive_downtime.description"),
)
async def choco(
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
    await save(interaction, **fields)


def commands() -> tuple[SetupCommand, ...]:
    """New command objects for each /setup group (a command belongs to one group, and two bots may run
    in one process)."""
    return (
        app_commands.command(name="referee-role", description=desc("cmd.setup.referee-role.description"))(
            referee_role
        ),
        app_commands.command(name="choco", description=desc("cmd.setup.choco.description"))(choco),
    )


SETUP_SECTION = SetupSection("choco", commands, summary)
