"""Property tests (hypothesis) of the deck text parsers (`services.shared.decks.parse_deck`, through each
game's `parse_deck`): whatever a player types, they return catalog ids or raise `BadInput` (shown to
the player localized), never another exception; and a deck written back as its ids, comma-separated
(with `x2` counts where the game reads them), parses to the same deck.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from functools import cache

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from core.errors import BadInput
from engine.cards import CardBase
from engine.choco.catalog import ChocoCatalog
from services.choco import decks as choco_decks
from services.infra.catalogs import DATA_DIR, load_catalog
from services.pillz import decks as pillz_decks
from services.shared.decks import DeckText
from tests.services.pillz.small_catalog import small_catalog

PROPERTIES = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
Parser = Callable[..., list[str]]  # a game's parse_deck(text, its cards)


@cache
def choco_cards() -> dict[str, CardBase]:
    return {c.id: c for c in load_catalog(DATA_DIR / "choco.json", ChocoCatalog).cards}


@cache
def pillz_cards() -> dict[str, CardBase]:
    return {c.id: c for c in small_catalog().cards}


GAMES: dict[str, tuple[Parser, Callable[[], dict[str, CardBase]], DeckText]] = {
    "choco": (choco_decks.parse_deck, choco_cards, choco_decks.DECK_TEXT),
    "pillz": (pillz_decks.parse_deck, pillz_cards, pillz_decks.DECK_TEXT),
}


def words(cards: Callable[[], dict[str, CardBase]]) -> st.SearchStrategy[str]:
    """Text a player might type: card ids and names (in both languages, any case), counts, separators,
    and arbitrary characters mixed in."""
    known = sorted({w for c in cards().values() for w in (c.id, c.name.fr, c.name.en)})
    piece = st.one_of(
        st.sampled_from(known),
        st.sampled_from(known).map(str.upper),
        st.sampled_from(known).map(lambda w: f"{w} x{len(w) % 4}"),
        st.sampled_from([",", " , ", "x2", "×3", ",,", " x99", "x", " "]),
        st.text(max_size=12),
    )
    return st.lists(piece, max_size=40).map("".join)


@pytest.mark.parametrize("game", sorted(GAMES))
def test_any_text_gives_ids_or_a_bad_input(game: str) -> None:
    parse, cards, rules = GAMES[game]

    @PROPERTIES
    @given(text=st.one_of(words(cards), st.text(max_size=300)))
    def check(text: str) -> None:
        refusal: BadInput | None = None
        try:
            deck = parse(text, cards())
        except BadInput as exc:
            refusal = exc
        if refusal is not None:
            assert refusal.key in (rules.unknown_key, rules.too_long_key)
            return
        assert len(deck) <= rules.max_items
        assert all(card_id in cards() for card_id in deck)

    check()


@pytest.mark.parametrize("game", sorted(GAMES))
def test_ids_written_back_parse_to_the_same_deck(game: str) -> None:
    parse, cards, rules = GAMES[game]
    ids = sorted(cards())

    @PROPERTIES
    @given(deck=st.lists(st.sampled_from(ids), max_size=rules.max_items))
    def check(deck: list[str]) -> None:
        assert parse(", ".join(deck), cards()) == deck
        if rules.counts:  # "id x2" where a card comes twice in a row, in the same order
            runs: list[tuple[str, int]] = []
            for card_id in deck:
                if runs and runs[-1][0] == card_id and runs[-1][1] < 2:
                    runs[-1] = (card_id, 2)
                else:
                    runs.append((card_id, 1))
            text = ", ".join(card_id if n == 1 else f"{card_id} x{n}" for card_id, n in runs)
            assert Counter(parse(text, cards())) == Counter(deck)

    check()


def test_a_text_over_the_limit_is_refused_not_truncated() -> None:
    """The limits the properties rely on, at their edge: one entry more is refused by key."""
    for parse, cards, rules in GAMES.values():
        card_id = sorted(cards())[0]
        assert len(parse(", ".join([card_id] * rules.max_items), cards())) == rules.max_items
        with pytest.raises(BadInput) as refused:
            parse(", ".join([card_id] * (rules.max_items + 1)), cards())
        assert refused.value.key == rules.too_long_key
