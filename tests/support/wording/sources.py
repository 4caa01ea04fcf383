"""Every text the bot can show that exists before it runs: each message of both catalogs (every branch of
every plural block, the command and option names and descriptions among them) and every localized text of
the card catalogs in `data/` (names, effects, clans, abilities)."""

from __future__ import annotations

import itertools
import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from core.i18n import Plural, catalogs, format_int, segments
from core.settings import SUPPORTED_LOCALES
from tests.support.wording.markup import holes

DATA = Path(__file__).resolve().parents[3] / "data"
SAMPLE_COUNT = {"one": 1, "other": 3, "many": 1_000_000, "zero": 0, "two": 2, "few": 3}


@dataclass(frozen=True)
class Source:
    where: str  # the catalog key, or the data file and path
    lang: str
    text: str  # placeholders as `markup.HOLE`


def variants(template: str, lang: str) -> list[str]:
    """The text once per choice of branches of its plural blocks (`#` a sample count of the branch's
    category, written by Babel as the bot writes it)."""
    options: list[list[str]] = []
    for part in segments(template):
        if isinstance(part, Plural):
            options.append(
                [
                    variant.replace(
                        "#", format_int(SAMPLE_COUNT.get(selector) or int(selector.lstrip("=")), lang)
                    )
                    for selector, branch in part.branches.items()
                    for variant in variants(branch, lang)
                ]
            )
        else:
            options.append([part])
    return ["".join(choice) for choice in itertools.product(*options)]


def catalog_texts() -> Iterator[Source]:
    for lang in SUPPORTED_LOCALES:
        for key, template in catalogs()[lang].items():
            for variant in dict.fromkeys(variants(template, lang)):
                yield Source(key, lang, holes(variant))


def _localized(node: object, where: str) -> Iterator[Source]:
    if isinstance(node, dict):
        if set(SUPPORTED_LOCALES) <= set(node) and all(
            isinstance(node[lang], str) for lang in SUPPORTED_LOCALES
        ):
            for lang in SUPPORTED_LOCALES:
                yield Source(where, lang, str(node[lang]))
            return
        for key, value in node.items():
            yield from _localized(value, f"{where}.{key}")
    elif isinstance(node, list):
        for index, value in enumerate(node):
            name = value.get("id") if isinstance(value, dict) else None
            yield from _localized(value, f"{where}[{name or index}]")


def data_texts(directory: Path = DATA) -> Iterator[Source]:
    for path in sorted(directory.glob("*.json")):
        yield from _localized(json.loads(path.read_text(encoding="utf-8")), path.name)


def all_texts() -> Iterator[Source]:
    yield from catalog_texts()
    yield from data_texts()
