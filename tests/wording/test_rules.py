"""Each rule of the text checker with a text that breaks it and one that keeps it (docs/glossary.md)."""

from __future__ import annotations

import pytest

from tests.support.wording import HOLE, check, holes, plain
from tests.support.wording.spelling import Speller, WordList, read_words
from tests.support.wording.typography import NBSP, NNBSP

CASES = [
    # (rule, language, breaks, keeps)
    ("spelling", "fr", "Le defi est lancé.", "Le défi est lancé."),
    ("spelling", "fr", "Grand OEuvre", "Grand Œuvre"),
    ("spelling", "en", "Your favorite color.", "Your favourite colour."),
    ("fr.colon", "fr", "Solde : 3", f"Solde{NBSP}: 3"),
    ("fr.colon", "fr", "Solde: 3", f"Solde{NBSP}: 3 à 20:00"),
    ("fr.high-punctuation", "fr", "Gagné !", f"Gagné{NNBSP}!"),
    ("fr.high-punctuation", "fr", "Prêt ? oui ; non", f"Prêt{NNBSP}? oui{NNBSP}; non"),
    ("fr.guillemets", "fr", "« Starter »", f"«{NBSP}Starter{NBSP}»"),
    ("fr.elision", "fr", "Coup précis de Archère montée", "Coup précis d'Archère montée"),
    ("fr.elision", "fr", "Profil de alice", "Profil d'alice, composez-le avec"),
    ("fr.elision", "fr", "si il gagne, le IA joue", "s'il gagne, l'IA joue, le onze"),
    ("fr.number-spaces", "fr", "il faut 1 000 pièces", f"il faut 1{NNBSP}000 pièces"),
    ("fr.decimal-point", "fr", "41.8 % de chances", f"41,8{NBSP}% de chances"),
    ("fr.percent", "fr", "41,8 % de chances", f"41,8{NNBSP}% de chances"),
    ("fr.ligature", "fr", "Coeur de pierre", "Cœur de pierre"),
    ("en.space-before-punctuation", "en", "Balance : 3", "Balance: 3"),
    ("en.guillemets", "en", "the « Starter » deck", "the “Starter” deck"),
    ("en.day-streak", "en", "(2 days streak)", "(2-day streak)"),
    ("en.decimal-comma", "en", "a 41,8% chance", "a 41.8% chance of 1,000"),
    ("en.percent", "en", "a 41.8 % chance", "a 41.8% chance"),
    ("sentence-start", "fr", f"Terminé. la suite{NNBSP}!", "Terminé. La suite, etc. et K.O. de 1. piocher"),
    ("number-grouping", "fr", "il faut 1000 pièces", f"il faut 1{NNBSP}000 pièces, n° 12345 en 2026"),
    ("iso-date", "fr", "pour la semaine du 2026-01-05", "pour la semaine du 5 janvier 2026"),
    ("plural-by-hand", "fr", "3 carte(s)", "3 cartes"),
    ("glyph-fallback", "fr", "\U000130ac main", "🃏 main"),
    ("glossary", "fr", "ATK 3", "ATQ 3"),
    ("glossary", "en", "ATQ 3", "ATK 3"),
]


@pytest.mark.parametrize(("rule", "lang", "breaks", "keeps"), CASES, ids=[f"{c[0]}-{c[2]}" for c in CASES])
def test_each_rule_finds_what_breaks_it_and_passes_what_keeps_it(
    rule: str, lang: str, breaks: str, keeps: str
) -> None:
    assert rule in {f.rule for f in check(breaks, lang, fragment=True)}, check(breaks, lang, fragment=True)
    assert rule not in {f.rule for f in check(keeps, lang, fragment=True)}, check(keeps, lang, fragment=True)


def test_a_message_starts_with_a_capital_but_a_fragment_may_not() -> None:
    assert [f.rule for f in check("l'IA commence.", "fr")] == ["sentence-start"]
    assert check("l'IA commence.", "fr", fragment=True) == []


def test_a_common_noun_of_the_glossary_is_lower_case_within_a_sentence() -> None:
    assert [f.rule for f in check("Vous recevez 40 Gallions.", "fr")] == ["glossary.lower-case"]
    assert check(f"Gallions{NBSP}: 40. Vous recevez 40 gallions.", "fr") == []


def test_markup_mentions_code_and_links_are_not_words() -> None:
    text = "**Gagné** par <@123> ! `/pillz défi` [voir](https://discord.com/x) <t:1:R> :star:"
    assert plain(text).split() == ["Gagné", "par", HOLE, "!", HOLE, "voir", HOLE, HOLE]


def test_placeholders_become_holes_and_are_not_checked_as_words() -> None:
    assert holes("Bonjour {name}, {amount:>3} {{brace}}") == f"Bonjour {HOLE}, {HOLE} {{brace}}"
    assert check(holes("Profil de {name}"), "fr", fragment=True) == []


def test_the_word_list_needs_a_reason_for_each_word(tmp_path) -> None:
    listed = tmp_path / "words.txt"
    listed.write_text("# game terms\nMoueffe\tnom de dinoz (Dinocard)\n", encoding="utf-8")
    words = read_words(listed)
    assert Speller(words).knows("Moueffe", "fr")
    assert not Speller(WordList(frozenset(), {})).knows("Moueffe", "fr")
    listed.write_text("Moueffe\n", encoding="utf-8")
    with pytest.raises(ValueError, match="word<TAB>why"):
        read_words(listed)


def test_hunspell_takes_elisions_hyphens_and_capitals_at_a_sentence_start() -> None:
    speller = Speller(WordList(frozenset({"deck"}), {"deck": "game term"}))
    assert speller.unknown("L'arbitre-prolonger d'Moueffe, aujourd'hui. Deck", "fr") == ["Moueffe"]
