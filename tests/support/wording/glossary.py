"""The glossary (docs/glossary.md) as the checker reads it: one term per concept and game in each
language, the forms to avoid, and which terms are common nouns (lower case within a sentence).

The document is the only source: its table is parsed here, so the rule and its explanation cannot drift
apart. A row's « Avoid » cells list forms, comma-separated; a term written in lower case in its own
column is a common noun, and a capitalized use of it within a sentence is a finding (« 40 Pièces »).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path

GLOSSARY = Path(__file__).resolve().parents[3] / "docs" / "glossary.md"
COLUMNS = ("Concept", "Game", "Français", "English", "Avoid (fr)", "Avoid (en)")


@dataclass(frozen=True)
class Term:
    concept: str
    game: str
    terms: dict[str, tuple[str, ...]]  # language -> the words used (a cell may name a singular and plural)
    avoid: dict[str, tuple[str, ...]]


def _cells(line: str) -> list[str]:
    return [cell.strip() for cell in line.strip().strip("|").split("|")]


CASE_FREE = " (case free)"  # a form also used as a name elsewhere (a rarity, a league): its case is free


def _forms(cell: str) -> tuple[str, ...]:
    return tuple(form.strip().strip("`") for form in cell.split(",") if form.strip() and form.strip() != "—")


def _case_checked(form: str) -> bool:
    return form[:1].islower() and len(form) > 2 and not form.endswith(CASE_FREE)


@cache
def read(path: Path = GLOSSARY) -> tuple[Term, ...]:
    """The rows of the first table whose header is `COLUMNS`."""
    lines = path.read_text(encoding="utf-8").splitlines()
    heads = [at for at, line in enumerate(lines) if line.startswith("|") and tuple(_cells(line)) == COLUMNS]
    if not heads:
        raise ValueError(f"{path.name}: no table with the columns {' | '.join(COLUMNS)}")
    terms = []
    for line in lines[heads[0] + 2 :]:
        if not line.startswith("|"):
            break
        concept, game, fr, en, avoid_fr, avoid_en = _cells(line)
        terms.append(
            Term(
                concept,
                game,
                {"fr": _forms(fr), "en": _forms(en)},
                {"fr": _forms(avoid_fr), "en": _forms(avoid_en)},
            )
        )
    return tuple(terms)


def _word(form: str) -> re.Pattern[str]:
    return re.compile(rf"(?<![\w'’-]){re.escape(form)}(?![\w'’-])")


@cache
def avoided(lang: str) -> tuple[tuple[re.Pattern[str], Term, str], ...]:
    return tuple((_word(form), term, form) for term in read() for form in term.avoid[lang])


def plain_form(form: str) -> str:
    return form.removesuffix(CASE_FREE)


@cache
def common_nouns(lang: str) -> tuple[tuple[re.Pattern[str], str], ...]:
    """Each common noun's capitalized form, to find it within a sentence."""
    found = []
    for term in read():
        for form in term.terms[lang]:
            if _case_checked(form):
                found.append((_word(form[:1].upper() + form[1:]), form))
    return tuple(found)
