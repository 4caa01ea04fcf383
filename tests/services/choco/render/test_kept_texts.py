"""A turn's posts name the same cards and quote the same effects at every turn: each catalog text (a card's
name, an effect's name and text, in both languages) is made into a Text once and shared by every post
(services/choco/text.py `localized`), where each turn's two posts made about 35 of them again
(issue 39, docs/performance.md)."""

from __future__ import annotations

from typing import Any

import pytest

from services.choco import text as choco_text
from services.choco.render.board import active_effects, board, hand
from services.infra.messages import RAW, Text
from tests.services.choco.render.games import NAMES, catalog, play, render


def test_drawing_a_board_and_a_hand_again_makes_no_name_or_effect_text_anew(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    played = [p.after for p in play(3)]
    states = [s for s in played if s.turn > 0][:12]
    assert states

    def drawn() -> list[Text]:
        return [
            part
            for state in states
            for part in (
                board(state, catalog(), NAMES),
                active_effects(state, catalog(), NAMES),
                hand(state, 0, catalog()),
                hand(state, 1, catalog()),
            )
        ]

    first = drawn()
    made: list[dict[str, str]] = []
    per_locale = Text.per_locale

    def counted(texts: dict[str, str]) -> Text:
        made.append(texts)
        return per_locale(texts)

    monkeypatch.setattr(Text, "per_locale", staticmethod(counted))
    again = drawn()
    assert made == []
    assert again == first
    for lang in ("fr", "en"):
        assert [render(part, lang) for part in again] == [render(part, lang) for part in first]


def test_a_card_name_is_one_text_in_each_language() -> None:
    card = next(c for c in catalog().cards if c.effect is not None)
    assert card.effect is not None
    name = choco_text.card_name(catalog(), card.id)
    assert name is choco_text.card_name(catalog(), card.id)
    assert choco_text.localized(card.effect.text) is choco_text.localized(card.effect.text)
    assert (render(name, "fr"), render(name, "en")) == (card.name.fr, card.name.en)


def test_the_kept_texts_are_dropped_whole_beyond_their_bound(monkeypatch: pytest.MonkeyPatch) -> None:
    kept: dict[Any, Text] = {}
    monkeypatch.setattr(choco_text, "_kept", kept)
    monkeypatch.setattr(choco_text, "_names", ((), {}))  # card_name's own names, kept by earlier tests
    monkeypatch.setattr(choco_text, "KEPT_TEXTS", 3)
    cards = catalog().cards[:5]
    for card in cards:
        choco_text.card_name(catalog(), card.id)
    assert len(kept) == 2  # three kept, dropped at the fourth, then the fourth and fifth
    assert render(choco_text.card_name(catalog(), cards[0].id), "fr") == cards[0].name.fr


def test_drawing_again_makes_no_label_or_players_name_anew(monkeypatch: pytest.MonkeyPatch) -> None:
    """The Texts without parameters (a line's title, « vide », a card's type) and the players' names are
    made once too: a board, its effects and a hand drawn again build only the Texts that carry figures."""
    state = next(p.after for p in play(4) if p.after.turn > 2 and p.after.sides[0].hand)

    def drawn() -> list[Text]:
        return [
            board(state, catalog(), NAMES),
            active_effects(state, catalog(), NAMES),
            hand(state, 0, catalog()),
        ]

    first = drawn()
    built: list[Text] = []
    init = Text.__init__

    def counted(self: Text, *args: Any, **kwargs: Any) -> None:
        init(self, *args, **kwargs)
        built.append(self)

    monkeypatch.setattr(Text, "__init__", counted)
    again = drawn()
    assert again == first
    assert built
    assert all(text.params for text in built)  # every label is the one made before
    assert all(text.key != RAW for text in built)  # so is every name
    assert choco_text.bare("choco.board.empty") is choco_text.bare("choco.board.empty")
    assert choco_text.verbatim("<@1>") is choco_text.verbatim("<@1>") == Text.raw("<@1>")
    assert choco_text.bare("choco.board.empty") == Text("choco.board.empty")
