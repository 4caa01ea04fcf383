"""A Dinocard preparation's page (the pack being built, what the collection still offers), as a
MessageSpec of localizable Text."""

from __future__ import annotations

from collections.abc import Mapping

from engine.dinocard import DinocardCard
from services.dinocard.keys import COUNT_KEYS, ELEMENT_KEYS, RARITY_KEYS, TYPE_KEYS
from services.dinocard.names import card_line, free_line
from services.dinocard.preparation import Preparation
from services.infra.messages import Embed, EmbedField, MessageSpec, Text


def seen_text(seen: dict[str, object], cards: Mapping[str, DinocardCard]) -> Text:
    """What Perception revealed, one line per kind of information."""
    lines = [Text("dinocard.prepare.size", {"count": seen["size"]})]
    tables = (("elements", ELEMENT_KEYS), ("types", TYPE_KEYS), ("rarities", RARITY_KEYS))
    for key, names in tables:
        counts = seen.get(key)
        if isinstance(counts, dict):
            parts = [
                Text(COUNT_KEYS[key], {"count": counts[n], "name": Text(label)})
                for n, label in names.items()
                if n in counts
            ]
            lines.append(Text.lines(parts))
    detail = seen.get("counts")
    distinct = seen.get("cards")
    if isinstance(detail, dict):
        lines += [card_line(cards[c], int(n)) for c, n in detail.items() if c in cards]
    elif isinstance(distinct, list):
        lines += [card_line(cards[c]) for c in distinct if c in cards]
    return Text.lines(lines)


def _collection(prep: Preparation) -> EmbedField:
    """The page of free cards that may be added, with its filters and how many copies each may give."""
    choices = prep.choices
    element = (
        Text(ELEMENT_KEYS[prep.element]) if prep.element else Text("dinocard.prepare.filter_all_elements")
    )
    kind = Text(TYPE_KEYS[prep.kind]) if prep.kind else Text("dinocard.prepare.filter_all_types")
    label = Text(
        "dinocard.prepare.collection_label",
        {"page": choices.page, "pages": choices.pages, "element": element, "type": kind},
    )
    if not choices.items:
        return EmbedField(label, Text("dinocard.prepare.collection_empty"), inline=False)
    lines = [free_line(o.card, o.count) for o in choices.items]
    if not prep.bonus_allowed:
        lines.append(Text("dinocard.prepare.bonus_skill"))
    return EmbedField(label, Text.lines(lines), inline=False)


def prepare_spec(prep: Preparation, cards: Mapping[str, DinocardCard]) -> MessageSpec:
    bonus = Text.lines([card_line(cards[c]) for c in prep.bonus]) if prep.bonus else None
    embed = Embed(
        title=Text(
            "dinocard.prepare.title",
            {"mine": prep.pack.name, "theirs": prep.opponent_name, "level": prep.opponent_level},
        ),
        description=seen_text(prep.seen, cards),
        fields=(
            EmbedField(
                Text(
                    "dinocard.prepare.bonus_label", {"count": len(prep.bonus), "maximum": prep.bonus_allowed}
                ),
                bonus or Text("dinocard.prepare.no_bonus"),
                inline=False,
            ),
            _collection(prep),
            EmbedField(
                Text("dinocard.prepare.daily_label"),
                Text("dinocard.prepare.daily", {"left": prep.daily_left})
                if prep.daily_left
                else Text("dinocard.prepare.daily_none"),
                inline=False,
            ),
        ),
    )
    return MessageSpec(embeds=(embed,))
