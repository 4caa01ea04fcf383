"""The look-ups a turn makes many times, made cheaper without changing what they find (issue 39):
`fold` of an ASCII word (most of a declaration) skips the Unicode decomposition that leaves it unchanged,
`locate` finds an instance in an index made once per state instead of scanning every zone, and
`card_name` keeps the names of its catalog's cards."""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.cards import LocalizedText
from engine.choco import Card, ChocoState
from engine.choco.state import evolve
from services.choco import text as choco_text
from services.choco.notation import fold
from services.choco.text import locate, zones
from services.infra.messages import Text
from tests.services.choco.render.games import catalog, play, render


def _full_fold(text: str) -> str:
    """`fold`'s path for any text, the one an ASCII text skips."""
    decomposed = unicodedata.normalize("NFKD", text.replace("’", "'").replace("‘", "'"))
    bare = "".join(ch for ch in decomposed if not unicodedata.combining(ch)).lower()
    return " ".join(bare.split())


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.characters(max_codepoint=127)))
def test_an_ascii_text_folds_as_through_the_full_path(text: str) -> None:
    assert text.isascii()
    assert fold(text) == _full_fold(text)


@settings(max_examples=300, deadline=None)
@given(st.text())
def test_any_text_folds_as_through_the_full_path(text: str) -> None:
    assert fold(text) == _full_fold(text)


def test_words_of_a_declaration_fold_as_before() -> None:
    for word, folded in (
        ("Attaque", "attaque"),
        ("  F1 ", "f1"),
        ("Réserve", "reserve"),
        ("Invoque  M2   FRONT", "invoque m2 front"),
        ("l’Ancien", "l'ancien"),
    ):
        assert fold(word) == folded


def _scanned(states: Iterable[ChocoState], uid: str) -> Card | None:
    """`locate` as a scan of every zone of each state, then its active effects."""
    for state in states:
        for side in state.sides:
            for _, cards in zones(side):
                for card in cards:
                    if card.uid == uid:
                        return card
        for active in state.actives:
            if active.card is not None and active.card.uid == uid:
                return active.card
    return None


def _uids(state: ChocoState) -> set[str]:
    found = {c.uid for side in state.sides for _, cards in zones(side) for c in cards}
    return found | {a.card.uid for a in state.actives if a.card is not None}


def test_locate_finds_what_a_scan_of_the_zones_finds() -> None:
    turns = list(play(2))
    assert turns
    for turn in turns:
        pair = (turn.before, turn.after)
        for uid in [*sorted(_uids(turn.before) | _uids(turn.after)), "nobody"]:
            assert locate(pair, uid) is _scanned(pair, uid)
            assert locate(pair[::-1], uid) is _scanned(pair[::-1], uid)


def test_a_state_made_anew_is_indexed_anew() -> None:
    """A hurt card is found with its new figures in the new state, the old in the old one, however many
    states were indexed in between."""
    state = next(t.after for t in play(1) if t.after.turn > 0 and t.after.sides[0].front)
    card = state.sides[0].front[0]
    hurt = evolve(card, {"pv": card.pv - 1})
    later = evolve(state, {"sides": (evolve(state.sides[0], {"front": (hurt,)}), state.sides[1])})
    assert locate((state,), card.uid) is card
    for turn in list(play(1))[: choco_text.KEPT_INDEXES * 2]:
        locate((turn.before, turn.after), card.uid)
    assert locate((later,), card.uid) is hurt
    assert locate((state,), card.uid) is card
    assert locate((later, state), card.uid) is hurt


def test_a_card_name_is_its_own_catalogs_whichever_catalog_was_asked_before() -> None:
    """The names kept for one catalog are never given for another: the same id renamed in a second
    catalog is named as that catalog says, back and forth."""
    first = catalog()
    card = first.cards[0]
    renamed = card.model_copy(update={"name": LocalizedText(fr="Autre nom", en="Other name")})
    second = first.model_copy(update={"cards": (renamed, *first.cards[1:])})
    for _ in range(2):
        for cards, name in ((first, card.name), (second, renamed.name)):
            shown = choco_text.card_name(cards, card.id)
            assert (render(shown, "fr"), render(shown, "en")) == (name.fr, name.en)
            assert choco_text.card_name(cards, card.id) is shown
    assert choco_text.card_name(first, "no-such-card") == Text.raw("no-such-card")
