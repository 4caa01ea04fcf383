"""The real catalogs of every game with card images, loaded once per test process."""

from __future__ import annotations

from typing import Any

import pytest

from services.platform import games
from services.platform.catalogs import DATA_DIR, load_all


@pytest.fixture(scope="session")
def catalogs() -> dict[str, Any]:
    specs = games.discover()
    return dict(load_all(DATA_DIR, [s for s in specs if s.card_art is not None]))
