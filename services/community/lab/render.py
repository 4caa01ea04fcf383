"""A lab report's page (`/<game> lab`): each tested card's effect on the win rate, in the reader's
language."""

from __future__ import annotations

from core.i18n import format_decimal, format_int, format_percent
from services.community.card_images.lab_chart import LAB_CHART
from services.community.lab.service import LabReport
from services.community.lab.stats import CardEffect
from services.infra.games import GameRegistry
from services.infra.messages import Embed, EmbedField, MessageSpec, Picture, Text

COLOR = 0x5CAA78


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
