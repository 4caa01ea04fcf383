"""The text checker: spelling with real dictionaries, the typographic rules of each language and the
glossary, over a catalog text or a message as Discord shows it (docs/glossary.md, "How texts are
checked").

`check(text, lang)` returns the findings of one text; `fragment=True` for a piece that is not a whole
message (a label, a catalog text placed inside another), whose start may be lower case.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache, lru_cache

from tests.support.wording import glossary
from tests.support.wording.markup import HOLE, holes, plain
from tests.support.wording.sources import data_texts
from tests.support.wording.spelling import Speller
from tests.support.wording.typography import RULES

__all__ = ["HOLE", "Finding", "check", "holes", "plain", "written_wording"]


@dataclass(frozen=True)
class Finding:
    rule: str
    excerpt: str
    says: str

    def __str__(self) -> str:
        return f"[{self.rule}] {self.excerpt!r}: {self.says}"


@cache
def _speller() -> Speller:
    return Speller()


_BOUNDARY = re.compile(r"[.!?…:\n•·|«(—-]")


def _mid_sentence(text: str, at: int) -> bool:
    """Whether a word at `at` is within a sentence: a word, a number or a value stands between it and
    the last sentence boundary (an emoji, a mark of emphasis or a space do not)."""
    before = text[:at]
    boundaries = list(_BOUNDARY.finditer(before))
    since = before[boundaries[-1].end() :] if boundaries else before
    return any(char.isalnum() or char == HOLE for char in since)


@cache
def _names_by_first_word() -> dict[str, tuple[str, ...]]:
    """Every card's and clan's name in the data (both languages), by its first word: a name is a proper
    noun (« Chocogrenouille bondissante »), its capital is its own."""
    found: dict[str, set[str]] = {}
    for source in data_texts():
        if source.where.endswith(".name") and source.text.split():
            found.setdefault(source.text.split()[0], set()).add(source.text)
    return {word: tuple(sorted(names, key=len, reverse=True)) for word, names in found.items()}


def _starts_a_name(text: str, at: int) -> bool:
    word = text[at:].split(maxsplit=1)[0] if text[at:].split() else ""
    return any(text.startswith(name, at) for name in _names_by_first_word().get(word.rstrip(".,;:!?)"), ()))


def check(text: str, lang: str, *, fragment: bool = False) -> list[Finding]:
    shown = plain(text)
    found = [
        Finding("spelling", word, "a word of the dictionary or of words.txt")
        for word in _speller().unknown(shown, lang)
    ]
    for rule in RULES:
        if lang in rule.languages:
            found += [Finding(rule.name, excerpt, rule.says) for excerpt in rule.find(shown)]
    for pattern, term, form in glossary.avoided(lang):
        use = "/".join(glossary.plain_form(form) for form in term.terms[lang]) or "another word"
        found += [
            Finding("glossary", form, f"{use} ({term.concept}, docs/glossary.md)")
            for _ in pattern.finditer(shown)
        ]
    for pattern, noun in glossary.common_nouns(lang):
        for match in pattern.finditer(shown):
            if _mid_sentence(shown, match.start()) and not _starts_a_name(shown, match.start()):
                found.append(Finding("glossary.lower-case", match.group(0), f"« {noun} » within a sentence"))
    start = shown.lstrip(" \n\u00a0*_>#-•")
    if not fragment and start[:1].islower():
        found.append(Finding("sentence-start", start[:20], "a capital letter at the message's start"))
    return found


# Not read in a message written with its values: the words of names (a player's, a card's) are not the
# catalogs' (whose spelling `tests/wording/test_texts.py` checks), and a message may be a piece of another.
NOT_IN_WRITTEN = frozenset({"spelling", "sentence-start"})


@lru_cache(maxsize=65536)
def written_wording(text: str, lang: str) -> tuple[str, ...]:
    """The findings of a message as `core.i18n.t` writes it, with its parameters (the test suite's
    `MessageGuard.wording`, core/message_guard.py); remembered, as most messages recur."""
    return tuple(str(f) for f in check(text, lang, fragment=True) if f.rule not in NOT_IN_WRITTEN)
