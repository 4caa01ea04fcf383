"""Every message a user sees goes through `t`; catalogs are JSON files per language under `locales/<lang>/`.

Files are split by concept (core, errors, each game) and merged per language; a key may live in only one file.
"""

from __future__ import annotations

import json
import logging
import string
from functools import cache
from pathlib import Path

from core.settings import SUPPORTED_LOCALES

LOCALES_DIR = Path(__file__).resolve().parent.parent / "locales"
DEFAULT_LOCALE = "fr"

log = logging.getLogger(__name__)


class CatalogError(Exception):
    pass


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
            merged[key] = text
    return merged


@cache
def catalogs() -> dict[str, dict[str, str]]:
    return {lang: load_catalog(lang) for lang in SUPPORTED_LOCALES}


def placeholders(text: str) -> set[str]:
    return {field for _, field, _, _ in string.Formatter().parse(text) if field}


def normalize_locale(raw: str | None, default: str = DEFAULT_LOCALE) -> str:
    """Map a Discord locale ('fr', 'en-US', 'en-GB', 'de', ...) to a language we speak."""
    if not raw:
        return default
    lang = str(raw).split("-")[0].split("_")[0].lower()
    return lang if lang in SUPPORTED_LOCALES else default


def has(key: str) -> bool:
    return key in catalogs()[DEFAULT_LOCALE]


def t(key: str, locale: str | None = None, /, **params: object) -> str:
    lang = normalize_locale(locale)
    table = catalogs()[lang]
    text = table.get(key)
    if text is None:
        log.warning("missing message %s for %s", key, lang)
        text = catalogs()[DEFAULT_LOCALE].get(key, key)
    try:
        return text.format(**params)
    except (KeyError, IndexError, ValueError):
        log.warning("message %s for %s lacks parameters %s", key, lang, sorted(params))
        return text


def format_decimal(value: float, locale: str | None, spec: str = "g") -> str:
    """A number with the decimal mark each language writes: 12,5 in French, 12.5 in English."""
    text = format(value, spec)
    return text.replace(".", ",") if normalize_locale(locale) == "fr" else text


def format_int(value: int, locale: str | None) -> str:
    """Thousands separators as each language writes them: 25 000 in French, 25,000 in English."""
    grouped = f"{value:,}"
    return grouped.replace(",", "\u202f") if normalize_locale(locale) == "fr" else grouped
