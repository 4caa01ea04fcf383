"""Every card of every game, as its face writes it in French and in English: each text the layout draws
goes through the text checker (docs/glossary.md) as a fragment, and none is refused. An English face is
English throughout (its labels, its punctuation, its numbers), a French face French (ATQ, never ATK;
« 30 % » written by Babel).

The faces are read without being drawn (`draw.TEXTS`): the layouts run through, each text recorded in its
box, no picture, glyph nor PNG made, so the whole set costs a fraction of a second.

The one finding let through: a `spelling` finding whose word is part of a name in the data catalogs
(`data/*.json`, every `name` in the face's language: the cards', and their clans', families', abilities',
effects' and spells'). Those names are the catalogs' own; the project's word list
(`tests/support/wording/words.txt`) is where they become words, and the catalog checks say so. A game term
the dictionaries do not know (ATQ, DÉF, pillz) is not a name: it is found here until the word list has it.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import pytest

from services.community.card_images import draw
from services.community.card_images.spec import CardCopy
from services.infra.catalogs import DATA_DIR, load_all
from tests.support.registries import every_game
from tests.support.wording import Finding, check
from tests.support.wording.sources import data_texts
from tests.support.wording.spelling import WORD

LOCALES = ("fr", "en")
# A HOSS copy's numbers grow with its rarity and stars (ATK in the thousands): its top copy is read too.
HOSS_TOP = CardCopy("divin", 5, True)


@pytest.fixture(scope="module")
def catalogs() -> dict[str, Any]:
    specs = every_game().all_games()
    return dict(load_all(DATA_DIR, [s for s in specs if s.card_art is not None]))


def name_words() -> dict[str, frozenset[str]]:
    """Per language, the words of every name of the data catalogs (and each without an elided article,
    as the checker reports « d'Abano »: « Abano »)."""
    words: dict[str, set[str]] = {lang: set() for lang in LOCALES}
    for source in data_texts():
        if source.where.endswith(".name"):
            for match in WORD.finditer(source.text):
                word = match.group(0).replace("’", "'")
                words[source.lang].update((word, word.rpartition("'")[2]))
    return {lang: frozenset(found) for lang, found in words.items()}


def face_texts(catalogs: dict[str, Any]) -> dict[tuple[str, str, str, str], list[str]]:
    """(game, card id, copy, language) -> the texts its face writes, in drawing order."""
    faces = {}
    for game, catalog in catalogs.items():
        art = every_game().get(game).card_art  # type: ignore[union-attr]
        assert art is not None
        for card in catalog.cards:
            copies = [art.default_copy(card)] + ([HOSS_TOP] if game == "hoss" else [])
            for copy in copies:
                for locale in LOCALES:
                    canvas = art.layout(card, catalog, copy, locale, draw.TEXTS)
                    key = (game, card.id, f"{copy.rarity}/{copy.stars}", locale)
                    faces[key] = [placed.text for placed in canvas.placed]
    return faces


def refused(texts: Iterable[str], lang: str, names: frozenset[str]) -> list[Finding]:
    """The checker's findings on a face's texts, but a catalog name's word the dictionaries lack."""
    return [
        finding
        for text in texts
        for finding in check(text, lang, fragment=True)
        if not (finding.rule == "spelling" and finding.excerpt in names)
    ]


def test_every_face_is_written_right_in_its_language(catalogs: dict[str, Any]) -> None:
    names = name_words()
    faces = face_texts(catalogs)
    findings = {
        f"{key}: {finding}": None
        for key, texts in faces.items()
        for finding in refused(texts, key[3], names[key[3]])
    }
    assert list(findings) == []
    # every game's every card was read in both languages, each face with its name and more
    assert {key[0] for key in faces} == set(catalogs)
    assert len(faces) == 2 * sum(len(c.cards) for c in catalogs.values()) + 2 * len(catalogs["hoss"].cards)
    assert all(len(texts) >= 3 for texts in faces.values())


def test_a_face_read_without_drawing_writes_the_texts_of_the_drawn_card(catalogs: dict[str, Any]) -> None:
    """`draw.TEXTS` records what the drawn card writes, in the same boxes, for a card of each game."""
    for game, catalog in catalogs.items():
        art = every_game().get(game).card_art  # type: ignore[union-attr]
        assert art is not None
        card = catalog.cards[-1]
        for locale in LOCALES:
            drawn = art.layout(card, catalog, art.default_copy(card), locale, True).placed
            read = art.layout(card, catalog, art.default_copy(card), locale, draw.TEXTS).placed
            assert [(p.box, p.text, p.size) for p in read] == [(p.box, p.text, p.size) for p in drawn]


def test_the_check_refuses_french_typography_and_other_words_on_an_english_face() -> None:
    """The negative control: the faces' check finds what the issue saw on English faces, and lets a name
    through only in its own language (a French name on an English face is a finding)."""
    names = name_words()
    assert "Chardon" in names["fr"]
    assert "Chardon" not in names["en"]
    seen = ["Rhythm : one hit every 2 s", "41.8 % chance", "+3 ATQ", "Gervaise Chaudron"]
    rules = [(f.rule, f.excerpt) for f in refused(seen, "en", names["en"])]
    assert ("en.space-before-punctuation", "Rhythm : one hit eve") in rules
    assert "en.percent" in {rule for rule, _ in rules}
    assert ("glossary", "ATQ") in rules
    assert ("spelling", "Chaudron") in rules
    assert refused(["Gervaise Chaudron"], "fr", names["fr"]) == []
    assert ("glossary", "ATK") in [(f.rule, f.excerpt) for f in refused(["+3 ATK"], "fr", names["fr"])]
