"""The lab's reply, the same for every game's `labo` subcommand: the checks first (a refusal is the
command's answer), then defer (a lab takes a second or more), say the position in the queue when the lab
has to wait, then the answer: an embed of the
figures per opponent and the cards that go with winning, and the chart (services/community/card_images/
lab_chart.py)."""

from __future__ import annotations

from typing import Any

import discord

from core.i18n import format_decimal, format_int, format_percent
from discord_app import deferral
from discord_app.context import locale_of, services_of
from discord_app.render import files_with_strips, text, to_discord
from services.community.card_images.lab_chart import LAB_CHART
from services.community.lab.service import LabReport
from services.community.lab.spec import LabRequest
from services.community.lab.stats import CardEffect
from services.infra.games import GameRegistry
from services.infra.messages import Embed, EmbedField, MessageSpec, Picture, Text

COLOR = 0x5CAA78


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


def _row_value(report: LabReport, index: int, locale: str | None) -> Text:
    s = report.rows[index].summary
    return Text(
        "lab.row",
        {
            "rate": format_percent(s.win_rate, locale),
            "low": format_percent(s.interval.low, locale),
            "high": format_percent(s.interval.high, locale),
            "wins": format_int(s.wins, locale),
            "battles": format_int(s.battles, locale),
            "draws": format_int(s.draws, locale),
            "length": Text(
                report.job.length_unit, {"count": format_decimal(round(s.mean_length, 1), locale)}
            ),
        },
    )


def signed(points: float, locale: str | None) -> str:
    """A difference in points with its sign, as the reader's language writes a decimal: « +12,5 »."""
    value = round(points, 1)
    return ("+" if value > 0 else "") + format_decimal(value, locale)


def _card_line(report: LabReport, effect: CardEffect, locale: str | None) -> Text:
    return Text(
        "lab.card",
        {
            "card": report.job.card_names.get(effect.card, Text.raw(effect.card)),
            "difference": signed(effect.difference * 100, locale),
            "with_rate": format_percent(effect.wins_with / effect.with_, locale),
            "with_count": format_int(effect.with_, locale),
            "without_rate": format_percent(effect.wins_without / effect.without, locale),
            "without_count": format_int(effect.without, locale),
        },
    )


def lab_spec(report: LabReport, locale: str | None, registry: GameRegistry) -> MessageSpec:
    title = Text("lab.title", {"game": registry.name(report.game), "subject": report.job.subject})
    fields = [
        EmbedField(row.opponent.label, _row_value(report, i, locale), inline=False)
        for i, row in enumerate(report.rows)
    ]
    for key, effects in (("lab.best", report.best), ("lab.worst", report.worst)):
        if effects:
            lines = Text.lines([_card_line(report, e, locale) for e in effects])
            fields.append(EmbedField(Text(key), lines, inline=False))
    if not report.best and not report.worst:
        fields.append(EmbedField(Text("lab.best"), Text("lab.no_cards"), inline=False))
    fields.append(
        EmbedField(
            Text("lab.method_title"),
            Text("lab.method", {"presence": Text(report.job.presence)}),
            inline=False,
        )
    )
    description = Text("lab.description", {"battles": format_int(report.battles, locale)})
    chart = Picture(
        "labo.png",
        LAB_CHART,
        {
            "title": title.to_json(),
            "subtitle": Text("lab.chart.subtitle").to_json(),
            "rows": [
                [
                    r.opponent.short.to_json(),
                    r.summary.wins,
                    r.summary.battles,
                    r.summary.interval.low,
                    r.summary.interval.high,
                ]
                for r in report.rows
            ],
        },
    )
    embed = Embed(title=title, description=description, fields=tuple(fields), color=COLOR, image="labo.png")
    return MessageSpec(embeds=(embed,), pictures=(chart,))


__all__ = ["LabRequest", "lab_reply", "lab_spec"]
