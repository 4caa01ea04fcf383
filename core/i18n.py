"""Every message a user sees goes through `t`; catalogs are JSON files per language under `locales/<lang>/`.

Files are split by concept (core, errors, each game) and merged per language; a key may live in only one file.
A text may hold plural blocks in the ICU style, `{count, plural, one {# carte} other {# cartes}}`, chosen by
Babel's plural rules for the language (docs/platform.md, "Messages and plurals"); numbers and dates are
written by Babel too, so that each language's typography comes from CLDR rather than from our guesses.
"""

from __future__ import annotations

import json
import logging
import re
import string
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from functools import cache, lru_cache
from pathlib import Path

from babel import Locale
from babel import dates as babel_dates
from babel import numbers as babel_numbers
from babel.plural import PluralRule

from core.elision import elide
from core.message_guard import GUARD, Written
from core.settings import SUPPORTED_LOCALES
from core.typography import typeset

LOCALES_DIR = Path(__file__).resolve().parent.parent / "locales"
DEFAULT_LOCALE = "fr"

log = logging.getLogger(__name__)

_PLURAL_HEAD = re.compile(r"\s*([a-z_][a-z0-9_]*)\s*,\s*plural\s*,", re.ASCII)
_SELECTOR = re.compile(r"\s*(=\d+|zero|one|two|few|many|other)\s*\{", re.ASCII)
_GROUPING = re.compile(r"[\s,.\u202f\u00a0']")


class CatalogError(Exception):
    pass


@dataclass(frozen=True)
class Plural:
    """One `{name, plural, ...}` block: the branch texts by selector (`one`, `other`, `=0`...)."""

    name: str
    branches: dict[str, str]


def _closing(text: str, start: int) -> int:
    """The index of the `}` that closes the `{` at `start`, counting nested braces."""
    depth = 0
    for i in range(start, len(text)):
        if text[i] == "{":
            depth += 1
        elif text[i] == "}":
            depth -= 1
            if depth == 0:
                return i
    raise CatalogError(f"unbalanced braces in {text!r}")


def _branches(body: str, whole: str) -> dict[str, str]:
    branches: dict[str, str] = {}
    at = 0
    while body[at:].strip():
        match = _SELECTOR.match(body, at)
        if match is None:
            raise CatalogError(f"bad plural branch at {body[at:]!r} in {whole!r}")
        open_at = match.end() - 1
        close_at = _closing(body, open_at)
        if match.group(1) in branches:
            raise CatalogError(f"plural branch {match.group(1)} twice in {whole!r}")
        branches[match.group(1)] = body[open_at + 1 : close_at]
        at = close_at + 1
    return branches


@cache
def segments(text: str) -> tuple[str | Plural, ...]:
    """The text cut into plain parts (str.format templates) and plural blocks."""
    parts: list[str | Plural] = []
    plain_from = i = 0
    while i < len(text):
        if text.startswith(("{{", "}}"), i):  # str.format's escaped braces
            i += 2
            continue
        if text[i] == "{":
            head = _PLURAL_HEAD.match(text, i + 1)
            if head is None:
                i += 1
                continue
            close_at = _closing(text, i)
            parts.append(text[plain_from:i])
            parts.append(Plural(head.group(1), _branches(text[head.end() : close_at], text)))
            plain_from = i = close_at + 1
            continue
        i += 1
    parts.append(text[plain_from:])
    return tuple(p for p in parts if p != "")


def plurals(text: str) -> list[Plural]:
    """Every plural block of a text, nested ones included (for the catalogs' checks)."""
    found: list[Plural] = []
    for part in segments(text):
        if isinstance(part, Plural):
            found.append(part)
            for branch in part.branches.values():
                found.extend(plurals(branch))
    return found


def plural_tags(locale: str | None) -> frozenset[str]:
    """The plural categories a language's texts must name, `other` included (Babel's CLDR rules)."""
    return Locale.parse(normalize_locale(locale)).plural_form.tags | {"other"}


def _count(value: object) -> int | float | None:
    """The number a plural block is chosen by: an int, or a number already written as text."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int | float):
        return value
    raw = _GROUPING.sub("", str(value)).replace("\u2212", "-")
    return int(raw) if raw.lstrip("-").isdigit() else None


def _choose(block: Plural, lang: str, params: dict[str, object]) -> str:
    value = params.get(block.name)
    count = _count(value)
    if count is None:
        log.warning("plural %s has no number (%r)", block.name, value)
        return block.branches.get("other", "")
    exact = block.branches.get(f"={count}")
    branch = (
        exact
        if exact is not None
        else block.branches.get(_category(lang, count), block.branches.get("other", ""))
    )
    shown = format_int(value, lang) if isinstance(value, int) else str(value)  # bool was refused above
    return expand(branch, lang, params).replace("#", shown)


@lru_cache(maxsize=4096, typed=True)
def _category(lang: str, count: int | float) -> str:
    """The CLDR category of `count` in `lang`, remembered: Babel evaluates the rule in 5 to 7 µs, and a
    reply's counts (a page number, a collection's size) are few and recur. Typed: an int and a float
    are asked of Babel apart."""
    return str(_plural_rule(lang)(count))


@cache
def _plural_rule(lang: str) -> PluralRule:
    """The language's CLDR plural rule, parsed once (Babel parses the locale again at every call)."""
    return Locale.parse(lang).plural_form


def expand(text: str, lang: str, params: dict[str, object]) -> str:
    """The text with each plural block replaced by its branch for the number given."""
    parts = segments(text)
    if len(parts) == 1 and isinstance(parts[0], str):  # most texts: no plural block
        return parts[0]
    return "".join(part if isinstance(part, str) else _choose(part, lang, params) for part in parts)


def load_catalog(lang: str, directory: Path = LOCALES_DIR) -> dict[str, str]:
    merged: dict[str, str] = {}
    files = sorted((directory / lang).glob("*.json"))
    if not files:
        raise CatalogError(f"no message catalog for language {lang!r} in {directory / lang}")
    for path in files:
        data = json.loads(path.read_text(encoding="utf-8"))
        if not isinstance(data, dict):
            raise CatalogError(f"{path.name}: must be a JSON object of key -> text")
        for key, text in data.items():
            if not isinstance(text, str):
                raise CatalogError(f"{path.name}: {key}: value must be a string")
            if key in merged:
                raise CatalogError(f"{path.name}: {key}: defined twice for {lang}")
            segments(text)  # a malformed plural block fails at start-up, naming the text
            merged[key] = typeset(text, lang)
    return merged


@cache
def catalogs() -> dict[str, dict[str, str]]:
    """Every language's texts, loaded with the Babel data their plurals and numbers use: Babel loads a
    language's data on first use (3 to 8 ms), which would otherwise fall on the first reply that writes a
    plural or a number in that language (in a Dinocard battle, the English log of the first battle to end)."""
    for lang in SUPPORTED_LOCALES:
        _plural_rule(lang)
        _group_symbols(lang)
    return {lang: load_catalog(lang) for lang in SUPPORTED_LOCALES}


def placeholders(text: str) -> set[str]:
    """The parameters a text names, in its plain parts and in every plural block and branch."""
    found: set[str] = set()
    for part in segments(text):
        if isinstance(part, Plural):
            found.add(part.name)
            for branch in part.branches.values():
                found |= placeholders(branch)
        else:
            found |= {field for _, field, _, _ in string.Formatter().parse(part) if field}
    return found


@lru_cache(maxsize=256)
def normalize_locale(raw: str | None, default: str = DEFAULT_LOCALE) -> str:
    """Map a Discord locale ('fr', 'en-US', 'en-GB', 'de', ...) to a language we speak. Remembered:
    every text a reply renders asks it again, and Discord has a few dozen locales."""
    if not raw:
        return default
    lang = str(raw).split("-")[0].split("_")[0].lower()
    return lang if lang in SUPPORTED_LOCALES else default


def has(key: str) -> bool:
    return key in catalogs()[DEFAULT_LOCALE]


def t(key: str, locale: str | None = None, /, **params: object) -> str:
    lang = normalize_locale(locale)
    if not params:
        bare = _bare(key, lang)
        if bare is not None:
            return bare
    memo = _memo_key(key, lang, params)
    if memo is not None:
        known = _WRITTEN.get(memo)
        if known is not None:
            return known
    text, plain, missing = _template(key, lang)
    if missing:
        log.warning("missing message %s for %s", key, lang)
        memo = None
    elif not plain:  # a plural block may warn of a parameter that is no number: each time
        memo = None
    shown = _shown(text)
    for name, value in params.items():  # `params` is this call's own dict
        if type(value) is date:  # a day, not an instant (a datetime is a date too)
            params[name] = format_date(value, lang)
        elif type(value) is not int and name in shown:  # never a repr nor a card id (core/message_guard.py)
            if memo is not None and GUARD.why(value) is None:
                continue  # what `check` returns for it, with nothing to log
            memo = None  # a finding is logged at every call
            params[name] = GUARD.check(value, key, name)
    try:
        written = elide(text if plain else expand(text, lang, params), lang, params).format(**params)
    except (KeyError, IndexError, ValueError):
        log.warning("message %s for %s lacks parameters %s", key, lang, sorted(params))
        return text
    if GUARD.wording is not None:  # tests: the message read, then carried up in what it is placed in
        return Written(written, GUARD.check_wording(key, lang, written, params))
    if memo is not None:
        if len(_WRITTEN) >= WRITTEN_MAX:
            _WRITTEN.clear()
        _WRITTEN[memo] = written
    return written


# The texts `t` wrote with parameters, by (language, key, parameters): a game's posts write the same ones
# again and again (its players' names, a line's title with its count: 76 % of a Chocobataille game's calls
# repeat an earlier one; a post renders in 16 to 28 % less CPU, benchmarks/render_path.py's specs). Only
# texts whose parameters are all str or int (hashable, written as they are), found in their language,
# without plural block, whose parameters the guard let through: a call that logs a warning (missing,
# plural without number, finding, lacking parameter) never comes from here. Dropped whole when full, when
# the catalogs are loaded again or when the guard forbids more words (core/message_guard.py `forbid`).
WRITTEN_MAX = 4096
_WRITTEN: dict[tuple[object, ...], str] = {}
_WRITTEN_FOR: list[object] = [None, None]  # the catalogs and forbidden words the texts were written with


def _memo_key(key: str, lang: str, params: dict[str, object]) -> tuple[object, ...] | None:
    for value in params.values():
        kind = type(value)
        if kind is not str and kind is not int:
            return None
    basis = written_with()
    if basis is None:  # tests: each call read by the wording check
        return None
    if _WRITTEN_FOR[0] is not basis[0] or _WRITTEN_FOR[1] is not basis[1]:
        _WRITTEN.clear()
        _WRITTEN_FOR[:] = basis
    return (lang, key, *params.items())


def written_with() -> tuple[object, object] | None:
    """What every text written now depends on besides its key and parameters: the catalogs loaded and the
    words the guard forbids (compared by identity: both are replaced, never changed). None while the tests'
    wording check reads each text: nothing written may then be kept."""
    if GUARD.wording is not None:
        return None
    return catalogs(), GUARD.forbidden


@lru_cache(maxsize=8192)
def _shown(text: str) -> frozenset[str]:
    """The parameters a text writes out, remembered: only those are checked (core/message_guard.py)."""
    return frozenset(placeholders(text))


# A placeholder that opens a sentence: at the text's start, after a sentence's end or a line break, past
# list marks and bold or italic markup.
_OPENER = re.compile(r"(?:^|[.!?…]\s+|\n)(?:\*\*|__|[-•>\s])*\{(\w+)\}")
_MARKUP = frozenset("*_~|«» \u00a0\u202f")


@lru_cache(maxsize=8192)
def sentence_openers(key: str, lang: str) -> frozenset[str]:
    """The placeholders of `key` that open a sentence in `lang`: a catalog text written there (« l'IA »)
    takes a capital, as a sentence does (« L'IA commence »)."""
    return frozenset(_OPENER.findall(_template(key, lang)[0]))


def capitalized(text: str) -> str:
    """`text` with its first letter in capital, past leading markup; a text that starts with something
    else (a mention, a digit, an emoji) is left as it is. Keeps what the wording check read (tests)."""
    for index, char in enumerate(text):
        if char in _MARKUP:
            continue
        if not char.islower():
            return text
        upper = text[:index] + char.upper() + text[index + 1 :]
        return Written(upper, capitalized(text.read)) if isinstance(text, Written) else upper
    return text


@lru_cache(maxsize=8192)
def _template(key: str, lang: str) -> tuple[str, bool, bool]:
    """(the text of `key` in `lang`, whether it has no plural block, whether it is missing there): the
    default language's text stands in for a missing one, the key itself for one missing everywhere.
    Remembered: a reply renders a few dozen texts, each looked up and cut into blocks at every call before."""
    text = catalogs()[lang].get(key)
    missing = text is None
    if text is None:
        text = catalogs()[DEFAULT_LOCALE].get(key, key)
    plain = all(isinstance(part, str) for part in segments(text))
    return text, plain, missing


@lru_cache(maxsize=8192)
def _bare(key: str, lang: str) -> str | None:
    """A text without parameters, written once per language: a label, a rarity, a button. None when
    `t` must take its full path (a missing key or a plural block: it logs why, every time)."""
    text, plain, missing = _template(key, lang)
    if missing or not plain:
        return None
    try:
        return text.format()
    except (KeyError, IndexError, ValueError):
        return None


def format_decimal(value: float, locale: str | None, spec: str = "g") -> str:
    """A number with the decimal mark and grouping each language writes (12,5 and 1 234,5 in French,
    12.5 and 1,234.5 in English). `spec` rounds as Python's format does (`g`: 6 significant digits,
    `.2f`: two decimals, kept even when zero)."""
    return _decimal(format(value, spec), spec, normalize_locale(locale))


@lru_cache(maxsize=4096)
def _decimal(rounded: str, spec: str, lang: str) -> str:
    """Babel writes a number in about 100 µs, and a card's face (/card, a HOSS creature's attack interval)
    writes the same few values again at every look: kept by the value as `spec` rounded it."""
    decimals = spec[1:-1] if spec.startswith(".") and spec.endswith("f") else ""
    pattern = f"#,##0.{'0' * int(decimals)}" if decimals.isdigit() else "#,##0.######"
    return babel_numbers.format_decimal(
        Decimal(rounded), format=pattern, locale=lang, decimal_quantization=False
    )


def format_percent(fraction: float, locale: str | None, digits: int = 1) -> str:
    """A fraction as a percentage with at most `digits` decimals, as each language writes it: « 12,5 % »
    (a no-break space) in French, "12.5%" in English (Babel's patterns)."""
    return _percent(round(fraction * 100, digits), normalize_locale(locale))


@lru_cache(maxsize=4096, typed=True)
def _percent(rounded: float, lang: str) -> str:
    """Babel writes a percentage in about 70 µs, and a Pillz move's controls write one per amount of pillz
    (up to 52): the percentages shown are few (whole ones, mostly), so each is written once."""
    return babel_numbers.format_percent(Decimal(str(rounded)) / 100, locale=lang, decimal_quantization=False)


def format_int(value: int, locale: str | None) -> str:
    """Thousands grouped as each language writes them: 25 000 (narrow no-break space) in French,
    25,000 in English."""
    return _grouped(value, normalize_locale(locale))


def _grouped(value: int, lang: str) -> str:
    """Babel writes a number in about 50 µs, and every reply writes a few (a balance just changed is a
    number never written before): a language that groups by threes, as both of the bot's do, has its
    group separator and minus sign read from Babel once, and Python's own grouping does the rest, the
    same text (`test_grouping_is_babels`). Any other grouping goes through Babel."""
    symbols = _group_symbols(lang)
    if symbols is None or type(value) is not int:
        return _babel_grouped(value, lang)
    group, minus = symbols
    digits = f"{abs(value):,}".replace(",", group)
    return f"{minus}{digits}" if value < 0 else digits


@cache
def _group_symbols(lang: str) -> tuple[str, str] | None:
    """(group separator, minus sign) of a language whose integers Babel groups by threes, else None."""
    locale = Locale.parse(lang)
    if locale.decimal_formats[None].grouping != (3, 3):
        return None
    symbols = locale.number_symbols["latn"]
    return str(symbols["group"]), str(symbols["minusSign"])


@lru_cache(maxsize=4096, typed=True)
def _babel_grouped(value: int, lang: str) -> str:
    return babel_numbers.format_decimal(value, locale=lang)


def format_date(day: date, locale: str | None) -> str:
    """A date written out in the reader's language: « 1 décembre 2026 », "December 1, 2026"."""
    return babel_dates.format_date(day, format="long", locale=normalize_locale(locale))
