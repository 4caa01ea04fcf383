"""A Dinocard pack's page (its cards and skills), as a MessageSpec of localizable Text."""

from __future__ import annotations

from collections import Counter
from typing import Any

from engine.dinocard import Skills, bonus_cards, daily_challenges, kept_on_top, start_life, xp_to_next
from services.dinocard.names import card_line
from services.dinocard.packs import PackView
from services.infra.messages import Day, Embed, EmbedField, MessageSpec, Text


def skills_text(skills: Skills) -> Text:
    return Text(
        "dinocard.pack.skills",
        {
            "daily": skills.daily,
            "daily_total": daily_challenges(skills),
            "life": skills.life,
            "life_total": start_life(skills),
            "strategy": skills.strategy,
            "kept": kept_on_top(skills),
            "bonus": skills.bonus,
            "bonus_total": bonus_cards(skills),
            "perception": skills.perception,
        },
    )


def pack_spec(view: PackView, cards: Any, note: Text | None = None) -> MessageSpec:
    pack = view.pack
    counts = Counter(pack.cards)
    lines = [card_line(cards[c], n) for c, n in counts.items() if c in cards]
    daily = (
        Text("dinocard.pack.daily", {"left": view.daily_left, "total": view.daily_total})
        if view.opens is None
        else Text("dinocard.pack.daily_from", {"day": Day(view.opens), "total": view.daily_total})
    )
    embed = Embed(
        title=Text("dinocard.pack.title", {"name": pack.name, "id": pack.id, "count": len(pack.cards)}),
        description=Text.lines(lines),
        fields=(
            EmbedField(
                Text("dinocard.pack.level_label"),
                Text(
                    "dinocard.pack.level",
                    {"level": pack.level, "xp": pack.xp, "next": xp_to_next(pack.level)},
                ),
            ),
            EmbedField(
                Text("dinocard.pack.record_label"),
                Text("dinocard.pack.record", {"wins": pack.wins, "losses": pack.losses}),
            ),
            EmbedField(Text("dinocard.pack.daily_label"), daily),
            EmbedField(
                Text("dinocard.pack.skills_label", {"left": pack.points_left}),
                skills_text(pack.skills),
                inline=False,
            ),
        ),
    )
    return MessageSpec(content=note, embeds=(embed,))


def packs_list(views: list[PackView]) -> MessageSpec:
    lines = [
        Text(
            "dinocard.pack.list_line",
            {
                "name": v.pack.name,
                "id": v.pack.id,
                "level": v.pack.level,
                "count": len(v.pack.cards),
                "left": v.daily_left,
            },
        )
        for v in views
    ]
    return MessageSpec(
        embeds=(
            Embed(
                title=Text("dinocard.pack.list_title"),
                description=Text.lines(lines) if lines else Text("dinocard.pack.none"),
            ),
        )
    )
