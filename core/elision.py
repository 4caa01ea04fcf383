"""A value placed after a word that changes with it: « de » + « Archère » is « d'Archère », "a" + "Elf" is
"an Elf" (docs/glossary.md, "Typography").

A catalog text writes the ordinary form (« Profil de {name} », "a {card}"); when the value written there
starts with a vowel, the word before it takes its elided form. The text is changed before the values
are written in, so what a player typed (a name) is never altered. A value that starts with its own
article merges with « de » as French does: « de L'Entraîneur » is « de l'Entraîneur », « de Le Sage »
« du Sage ». A name whose h is mute or aspirated cannot be known: an h takes no elision (« de Hoss »).
"""

from __future__ import annotations

import re
from functools import lru_cache

VOWELS = frozenset("aeiouyàâäéèêëîïôöùûüœæAEIOUYÀÂÄÉÈÊËÎÏÔÖÙÛÜŒÆ")
# The words of a French text that elide before a vowel, each with its elided form.
_FRENCH = {"de": "d'", "De": "D'", "le": "l'", "Le": "L'", "la": "l'", "La": "L'", "que": "qu'", "Que": "Qu'"}
_ENGLISH = {"a": "an", "A": "An"}
_MARKUP = "*_~|«\u00a0 "


@lru_cache(maxsize=4096)
def _slots(template: str, lang: str) -> tuple[tuple[str, str, str], ...]:
    """(the text before a placeholder, its word, the placeholder's name) of each placeholder a word that
    may elide stands right before."""
    words = _FRENCH if lang == "fr" else _ENGLISH if lang == "en" else {}
    if not words:
        return ()
    pattern = re.compile(rf"(?<![\w'’-])({'|'.join(words)}) (\*\*|__|«\u00a0)?\{{(\w+)\}}")
    return tuple((m.group(0), m.group(1), m.group(3)) for m in pattern.finditer(template))


def _first(value: str) -> str:
    return value.lstrip(_MARKUP)[:1]


_ARTICLES = (("Les ", "des "), ("Le ", "du "), ("La ", "de la "), ("L'", "de l'"), ("L’", "de l’"))


def _french(word: str, markup: str, name: str, value: str) -> tuple[str, str]:
    """« de {name} » as the value wants it, and the value as written there (without the article that
    merged with « de »)."""
    lead = value[: len(value) - len(value.lstrip(_MARKUP))]
    shown = value[len(lead) :]
    if word in ("de", "De") and not markup:
        for article, merged in _ARTICLES:
            if shown.startswith(article) and len(shown) > len(article):
                merged = merged if word == "de" else merged[0].upper() + merged[1:]
                return f"{merged}{{{name}}}", lead + shown[len(article) :]
    if shown[:1] in VOWELS:
        return f"{_FRENCH[word]}{markup}{{{name}}}", value
    return f"{word} {markup}{{{name}}}", value


def elide(template: str, lang: str, params: dict[str, object]) -> str:
    """`template` with each eliding word before a placeholder in the form the value written there wants
    (a value that merged its article with « de » is written without it, in `params`)."""
    for whole, word, name in _slots(template, lang):
        value = params.get(name)
        if not isinstance(value, str) or not value.lstrip(_MARKUP):
            continue
        markup = whole[len(word) + 1 : whole.index("{")]
        if lang == "fr":
            replaced, written = _french(word, markup, name, value)
            if written != value:
                if template.count("{" + name + "}") > 1:  # written elsewhere too: it keeps its article
                    continue
                params[name] = written
        else:
            replaced = f"{_ENGLISH[word]} {markup}{{{name}}}" if _first(value) in VOWELS else whole
        template = template.replace(whole, replaced, 1)
    return template
