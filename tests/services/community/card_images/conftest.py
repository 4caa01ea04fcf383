"""The real catalogs of every game with card images, loaded once per test process, and every card of
them drawn once in both languages with its texts audited."""

from __future__ import annotations

from typing import Any

import pytest

from services.community.card_images.draw import Canvas
from services.community.card_images.spec import CardArt
from services.infra.catalogs import DATA_DIR, load_all
from tests.support.registries import every_game

LOCALES = ("fr", "en")
HOSS_RARITIES = ("basique", "argent", "or", "platine", "diamant", "divin")


def art_of(game: str) -> CardArt:
    spec = every_game().get(game)
    assert spec is not None
    assert spec.card_art is not None
    return spec.card_art


@pytest.fixture(scope="session")
def catalogs() -> dict[str, Any]:
    specs = every_game().all_games()
    return dict(load_all(DATA_DIR, [s for s in specs if s.card_art is not None]))


@pytest.fixture(scope="session")
def drawn(catalogs: dict[str, Any]) -> dict[tuple[str, str, str], Canvas]:
    """(game, card id, language) -> the card's default copy, drawn with its texts audited."""
    out = {}
    for game, catalog in catalogs.items():
        art = art_of(game)
        for card in catalog.cards:
            for locale in LOCALES:
                out[(game, card.id, locale)] = art.layout(card, catalog, art.default_copy(card), locale, True)
    return out
