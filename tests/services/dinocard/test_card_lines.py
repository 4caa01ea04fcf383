"""A card's line (services/dinocard/names.py `card_line`) is written once per card in every language (issue
39: a preparation page shows ten to thirty), and reads in each language as the line's key writes it."""

from __future__ import annotations

from typing import Any

import pytest

from engine.dinocard import DinocardCard, DinocardCatalog
from services.dinocard import names
from services.dinocard.keys import RARITY_KEYS, TYPE_KEYS
from services.infra.messages import Text, render_text


def as_written(card: DinocardCard, locale: str) -> str:
    params: dict[str, Any] = {
        "name": card.name.get(locale),
        "element": names.ELEMENT_MARKS[card.element],
        "type": Text(TYPE_KEYS[card.type]),
        "cost": names.cost_text(card),
        "rarity": Text(RARITY_KEYS[card.rarity]),
    }
    if card.type != "dinoz":
        return render_text(Text("dinocard.card.line", params), locale)
    params |= {"eclosion": card.eclosion, "force": card.force, "endurance": card.endurance}
    return render_text(Text("dinocard.card.line_dinoz", params), locale)


def test_a_cards_line_is_written_once_and_reads_as_its_key_says(
    catalog: DinocardCatalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    names._line.cache_clear()
    written: list[str] = []

    def counted(value: Text | None, locale: str | None) -> str:
        written.append(str(locale))
        return render_text(value, locale)

    monkeypatch.setattr(names, "render_text", counted)
    cards = catalog.cards[:12]
    first = [render_text(names.card_line(card), "fr") for card in cards]
    assert len(written) == 2 * len(cards)  # each line, in French and in English
    written.clear()
    again = [render_text(names.card_line(card, 2), locale) for card in cards for locale in ("fr", "en")]
    assert written == []
    assert first == [as_written(card, "fr") for card in cards]
    assert again[1] == render_text(
        Text("dinocard.card.copies", {"count": 2, "line": as_written(cards[0], "en")}), "en"
    )


def test_a_card_offered_as_bonus_is_written_once_per_count_and_reads_as_its_key_says(
    catalog: DinocardCatalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    names._free_line.cache_clear()
    written: list[str] = []

    def counted(value: Text | None, locale: str | None) -> str:
        written.append(str(locale))
        return render_text(value, locale)

    cards = catalog.cards[:10]
    for card in cards:
        names.card_line(card)  # each card's own line written (kept) before, as any page has it
    monkeypatch.setattr(names, "render_text", counted)
    first = [render_text(names.free_line(card, 2), locale) for card in cards for locale in ("fr", "en")]
    assert len(written) == 2 * len(cards)  # each offer, in French and in English
    written.clear()
    again = [render_text(names.free_line(card, 2), locale) for card in cards for locale in ("fr", "en")]
    assert written == []  # a page shown again, or another player's with the same offers
    assert again == first
    assert first[0] == render_text(
        Text("dinocard.prepare.collection_line", {"line": as_written(cards[0], "fr"), "free": 2}), "fr"
    )
    assert render_text(names.free_line(cards[0], 1), "en") == render_text(
        Text("dinocard.prepare.collection_line", {"line": as_written(cards[0], "en"), "free": 1}), "en"
    )
