"""The lab's reply, the same for every game's `labo` subcommand: the checks first (a refusal is the
command's answer), then defer (a lab takes a second or more), say the position in the queue when the lab
has to wait, then the answer: an embed of the
figures per opponent and the cards that go with winning, and the chart (services/community/card_images/
lab_chart.py)."""

from __future__ import annotations

from typing import Any

import discord

from discord_app import deferral
from discord_app.context import locale_of, services_of
from discord_app.render import files_with_strips, text, to_discord
from services.community.lab.render import lab_spec
from services.community.lab.spec import LabRequest
from services.infra.messages import Text


async def lab_reply(interaction: discord.Interaction[Any], game: str, request: LabRequest) -> None:
    locale = await locale_of(interaction)  # a player's first command creates them
    lab = services_of(interaction).lab
    ticket = await lab.start(game, request)  # the checks and the cooldown: milliseconds, refused at once
    await deferral.defer_reply(interaction)
    if ticket.position:
        queued = Text("lab.queued", {"position": ticket.position})
        await deferral.reply(interaction, content=text(queued, locale))
    report = await lab.finish(ticket)
    spec = lab_spec(report, locale, services_of(interaction).registry)
    files = await files_with_strips(spec, locale, services_of(interaction).card_images)
    await deferral.reply(interaction, **to_discord(spec, locale), files=files)


__all__ = ["LabRequest", "lab_reply"]
