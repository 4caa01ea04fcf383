"""A value placed after a word that changes with it (core/elision.py), through `t` as every message is."""

from __future__ import annotations

import pytest

from core.elision import elide
from core.i18n import t


@pytest.mark.parametrize(
    ("template", "value", "written"),
    [
        ("Profil de {name}", "alice", "Profil d'alice"),
        ("Profil de {name}", "Bob", "Profil de Bob"),
        ("Coup précis de **{card}**", "Archère montée", "Coup précis d'**Archère montée**"),
        ("Tour de {element}", "Eau", "Tour d'Eau"),
        ("Offre de {name}", "un joueur anonyme", "Offre d'un joueur anonyme"),
        ("Terrain de {name} (bot)", "L'Entraîneur", "Terrain de l'Entraîneur (bot)"),
        ("Le terrain de {name}", "Le Sage", "Le terrain du Sage"),
        ("Pour que {name} gagne", "Hoss", "Pour que Hoss gagne"),  # an h takes no elision: it cannot be known
        ("Profil de {name}", "<@12>", "Profil de <@12>"),  # a mention shows a name the bot does not know
    ],
)
def test_french_elides_before_a_vowel_and_merges_an_article(template: str, value: str, written: str) -> None:
    params: dict[str, object] = {"name": value, "card": value, "element": value}
    assert elide(template, "fr", params).format(**params) == written


def test_english_writes_an_before_a_vowel() -> None:
    params: dict[str, object] = {"card": "Elf"}
    assert elide("You draw a {card}.", "en", params).format(**params) == "You draw an Elf."
    params = {"card": "Orc"}
    assert elide("You draw a {card}.", "en", params).format(**params) == "You draw an Orc."
    params = {"card": "Goblin"}
    assert elide("You draw a {card}.", "en", params).format(**params) == "You draw a Goblin."


def test_every_message_goes_through_it() -> None:
    assert t("profile.title", "fr", name="alice") == "Profil d'alice"
