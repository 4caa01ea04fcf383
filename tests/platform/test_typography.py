"""French spacing set when a catalog is loaded (core/typography.py), and percentages written by Babel."""

from __future__ import annotations

import re

from core.i18n import catalogs, format_percent
from core.typography import NBSP, NNBSP, typeset


def test_french_punctuation_gets_its_no_break_spaces() -> None:
    assert typeset("Solde : 3 ; gagné ! prêt ? « Starter » 12 %", "fr") == (
        f"Solde{NBSP}: 3{NNBSP}; gagné{NNBSP}! prêt{NNBSP}? «{NBSP}Starter{NBSP}» 12{NBSP}%"
    )


def test_code_english_and_a_sign_without_a_space_are_left_as_they_are() -> None:
    assert typeset("`/pillz deck nom : x` puis : go", "fr") == f"`/pillz deck nom : x` puis{NBSP}: go"
    assert typeset("Balance: 3 ; done !", "en") == "Balance: 3 ; done !"
    assert typeset("Solde: 3", "fr") == "Solde: 3"  # the checker's finding, fixed in the catalog


def test_the_loaded_french_catalog_has_no_plain_space_before_a_high_sign() -> None:
    outside_code = {key: re.sub(r"`[^`]*`", "", text) for key, text in catalogs()["fr"].items()}
    found = [key for key, text in outside_code.items() if any(f" {sign}" in text for sign in ":;!?»%")]
    assert found == []


def test_percentages_follow_each_language() -> None:
    assert format_percent(0.125, "fr") == f"12,5{NBSP}%"
    assert format_percent(0.125, "en") == "12.5%"
    assert format_percent(0.96875, "fr", 3) == f"96,875{NBSP}%"
    assert format_percent(0.09, "en", 0) == "9%"
