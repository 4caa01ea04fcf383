"""The typographic rules of the bot's two languages, each a function of a plain text (markup out,
`markup.plain`) returning the excerpts that break it. docs/glossary.md ("Typography") says each rule and
why; `tests/wording/test_rules.py` has a failing and a passing example of each.

French spaces, as Discord shows them on desktop and on phones: a no-break space (U+00A0) before `:` and
inside « »; a narrow no-break space (U+202F) before `;`, `!` and `?`, the character Babel already writes
between the groups of every French number the bot shows. Both keep the sign on the line of its word.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from tests.support.wording.markup import HOLE

NBSP, NNBSP = "\u00a0", "\u202f"
VOWELS = "aeiouyàâäéèêëîïôöùûüœæAEIOUYÀÂÄÉÈÊËÎÏÔÖÙÛÜŒÆ"
# Words a vowel starts that take no elision (« le onze », « de oui »), and mute-h words that take one.
NO_ELISION = frozenset({"onze", "onzième", "oui", "ouistiti", "yaourt", "yacht", "yeti", "yéti", "uhlan"})
MUTE_H = (
    "heure",
    "habitude",
    "histoire",
    "homme",
    "hiver",
    "herbe",
    "honneur",
    "hôtel",
    "huile",
    "humain",
    "héro",
    "hippo",
    "horizon",
    "hôpital",
    "hydre",
    "hexagone",
)
ABBREVIATIONS = frozenset(
    {"etc", "ex", "cf", "vs", "env", "p", "n", "no", "St", "Mr", "Dr", "min", "max", "niv"}
)


@dataclass(frozen=True)
class Rule:
    name: str
    languages: tuple[str, ...]
    says: str  # what the reader should see instead, for the finding's message
    find: Callable[[str], list[str]]


def _excerpt(text: str, at: int, end: int | None = None) -> str:
    end = at + 1 if end is None else end
    return text[max(0, at - 12) : end + 12].replace(HOLE, "{…}")


def _matches(pattern: re.Pattern[str]) -> Callable[[str], list[str]]:
    def find(text: str) -> list[str]:
        return [_excerpt(text, m.start(), m.end()) for m in pattern.finditer(text)]

    return find


def _fr_colon(text: str) -> list[str]:
    found = []
    for match in re.finditer(":", text):
        at = match.start()
        before, after = text[at - 1 : at], text[at + 1 : at + 2]
        if before.isdigit() and after.isdigit():  # a time, 20:00
            continue
        if at == 0 or before != NBSP:
            found.append(_excerpt(text, at))
    return found


def _fr_high_punctuation(text: str) -> list[str]:
    found = []
    for match in re.finditer(r"[;!?]", text):
        at = match.start()
        before = text[at - 1 : at]
        if at == 0 or before in "!?" or before == NNBSP:
            continue
        found.append(_excerpt(text, at))
    return found


def _fr_guillemets(text: str) -> list[str]:
    found = [_excerpt(text, m.start()) for m in re.finditer("«", text) if text[m.end() : m.end() + 1] != NBSP]
    found += [
        _excerpt(text, m.start()) for m in re.finditer("»", text) if text[m.start() - 1 : m.start()] != NBSP
    ]
    return found


_ELIDED_WORDS = "de|le|la|que|je|me|te|se|ne|ce|jusque|lorsque|puisque"
_ELISION = re.compile(
    rf"(?<![\w'’-])({_ELIDED_WORDS})[ {NBSP}]+([{VOWELS}][\w'’-]*|(?:{'|'.join(MUTE_H)})\w*)", re.IGNORECASE
)
_SI_IL = re.compile(r"(?<![\w'’-])si[ \u00a0]+ils?\b", re.IGNORECASE)


def _fr_elision(text: str) -> list[str]:
    found = [
        _excerpt(text, m.start(), m.end())
        for m in _ELISION.finditer(text)
        if m.group(2).lower() not in NO_ELISION
    ]
    return found + [_excerpt(text, m.start(), m.end()) for m in _SI_IL.finditer(text)]


_SENTENCE_END = re.compile(rf"(\w*)([.!?])[ {NBSP}{NNBSP}]*[ \n]+[«{NBSP} ]*([a-zàâäéèêëîïôöùûüçœ])")


def _lower_sentence_start(text: str) -> list[str]:
    return [
        _excerpt(text, m.start(2), m.end())
        for m in _SENTENCE_END.finditer(text)
        if not (
            m.group(2) == "."
            and (m.group(1) in ABBREVIATIONS or m.group(1).isdigit() or len(m.group(1)) == 1)
        )
    ]


_UNGROUPED = re.compile(r"(?<![\d#°/:.,\w-])(?!(?:19|20)\d\d(?!\d))\d{4,}(?![\d/])")
_COPY_NUMBER = re.compile(r"(?:n°|#|[Nn]o\.)[ \u00a0\u202f]?$")
_SNOWFLAKE = 15  # digits: a Discord id (17 and more) names someone, it is no quantity


def _ungrouped_number(text: str) -> list[str]:
    """A quantity of four digits or more without its groups (« 1000 »); a year and a number that names
    something (« n° 12345 », « #12345 ») are not quantities."""
    return [
        _excerpt(text, m.start(), m.end())
        for m in _UNGROUPED.finditer(text)
        if not _COPY_NUMBER.search(text[max(0, m.start() - 4) : m.start()]) and len(m.group()) < _SNOWFLAKE
    ]


def _fr_space_grouped(text: str) -> list[str]:
    """« 1 000 » with a plain or no-break space: Babel writes a narrow no-break space in French."""
    return _matches(re.compile(r"\b\d{1,3}(?:[ \u00a0]\d{3})+\b"))(text)


def _fr_percent(text: str) -> list[str]:
    return [_excerpt(text, m.start()) for m in re.finditer(r"(?<=[\d ])%", text)]


_OE = re.compile(
    r"\b\w*(?:oeuvre|coeur|soeur|oeil|oeuf|boeuf|noeud|voeu|manoeuvr|oesophag|foetus)\w*", re.IGNORECASE
)


_ISO_DATE = re.compile(r"(?<![\w-])\d{4}-\d{2}-\d{2}(?![\w-])")
_TYPING_EXAMPLE = re.compile(r"(?:ex\.|exemple|e\.g\.|example|AAAA-MM-JJ|YYYY-MM-DD)\W{0,4}$", re.IGNORECASE)


def _iso_date(text: str) -> list[str]:
    """A date in ISO form within a sentence; an example of what to type in a date option is one."""
    return [
        _excerpt(text, m.start(), m.end())
        for m in _ISO_DATE.finditer(text)
        if not _TYPING_EXAMPLE.search(text[max(0, m.start() - 24) : m.start()])
    ]


_EMOJI = ((0x1F300, 0x1FAFF), (0x1F170, 0x1F251), (0x1F1E6, 0x1F1FF), (0x1F004, 0x1F004), (0x1F0CF, 0x1F0CF))


def _glyph_without_fallback(text: str) -> list[str]:
    """A character many phones show as an empty box: outside the Basic Multilingual Plane and not an
    emoji, or private use (the checker's own `HOLE` excepted)."""
    found = []
    for at, char in enumerate(text):
        code = ord(char)
        emoji = any(low <= code <= high for low, high in _EMOJI)
        private = 0xE000 <= code <= 0xF8FF and char != HOLE
        if private or (code > 0xFFFF and not emoji):
            found.append(_excerpt(text, at))
    return found


RULES = (
    Rule("fr.colon", ("fr",), "a no-break space (U+00A0) before « : »", _fr_colon),
    Rule(
        "fr.high-punctuation",
        ("fr",),
        "a narrow no-break space (U+202F) before « ; », « ! », « ? »",
        _fr_high_punctuation,
    ),
    Rule("fr.guillemets", ("fr",), "« » with a no-break space (U+00A0) inside", _fr_guillemets),
    Rule("fr.elision", ("fr",), "the elision (« d'Archère », « l'IA », « s'il »)", _fr_elision),
    Rule("fr.number-spaces", ("fr",), "numbers grouped by Babel (narrow no-break space)", _fr_space_grouped),
    Rule(
        "fr.decimal-point",
        ("fr",),
        "a decimal comma (« 12,5 »)",
        _matches(re.compile(r"(?<![\w.])(?<!BY )(?<!CC0 )(?<!version )(?<!Attribution )\d+\.\d+(?![\w.])")),
    ),
    Rule("fr.percent", ("fr",), "a no-break space before « % »", _fr_percent),
    Rule("fr.ligature", ("fr",), "« œ » written as such (« œuvre », « cœur »)", _matches(_OE)),
    Rule(
        "en.space-before-punctuation",
        ("en",),
        "no space before « : ; ! ? »",
        _matches(re.compile(rf"[ {NBSP}{NNBSP}][:;!?](?=[\s)]|$)")),
    ),
    Rule("en.guillemets", ("en",), "English quotation marks, not « »", _matches(re.compile("[«»]"))),
    Rule("en.day-streak", ("en",), "« 2-day streak »", _matches(re.compile(r"\b\d+ days? streak\b"))),
    Rule(
        "en.decimal-comma", ("en",), "a decimal point (« 12.5 »)", _matches(re.compile(r"\d,\d{1,2}(?!\d)"))
    ),
    Rule("en.percent", ("en",), "no space before « % »", _matches(re.compile(rf"\d[ {NBSP}{NNBSP}]%"))),
    Rule("sentence-start", ("fr", "en"), "a capital letter at a sentence's start", _lower_sentence_start),
    Rule(
        "number-grouping", ("fr", "en"), "numbers grouped by Babel (« 1 000 », « 1,000 »)", _ungrouped_number
    ),
    Rule(
        "iso-date",
        ("fr", "en"),
        "a date written in words by Babel (« 5 janvier 2026 »)",
        _iso_date,
    ),
    Rule(
        "plural-by-hand", ("fr", "en"), "a plural block, not « (s) »", _matches(re.compile(r"\((?:s|es|x)\)"))
    ),
    Rule(
        "glyph-fallback",
        ("fr", "en"),
        "a glyph every phone shows, or text beside it",
        _glyph_without_fallback,
    ),
)
