"""The booster draw's results pinned for a given generator: the same `random.Random` state gives the same
boosters, whatever the draw precomputes per catalog (rulebook, « Boosters » : les probabilités « ne changent
jamais, quel que soit le nombre de boosters déjà ouverts »; a seed always draws the same)."""

from __future__ import annotations

import hashlib
import random

import pytest

from engine.hoss import CARDS_PER_BOOSTER, RACES, TIERS, BoosterPool, HossCatalog, boosters, draw_booster
from services.infra.catalogs import DATA_DIR, load_catalog

# sha256 of every booster drawn below, on the code whose draws the purchases of the bot have stored
DIGEST = "28aed7a379329f611cf79459ced2dadd8429ca92b395ded52d8bba5035e6703d"


def _draws() -> str:
    pool = BoosterPool.of(load_catalog(DATA_DIR / "hoss.json", HossCatalog))
    rng = random.Random(2026)
    lines: list[str] = []
    for race in (None, *RACES):
        for tier in TIERS:
            for _ in range(40):
                booster = draw_booster(pool, rng, tier, race)
                lines.append(";".join(f"{d.card},{d.kind},{d.rarity},{int(d.holo)}" for d in booster))
    return "\n".join(lines)


def test_a_generator_draws_the_same_boosters() -> None:
    assert hashlib.sha256(_draws().encode()).hexdigest() == DIGEST


def test_the_digest_sees_rare_draws() -> None:
    """The pinned draws include Rang 2 and 3 cards and rarities above Basique, so a change in any part of
    the draw (line, rank, path, rarity) changes the digest."""
    text = _draws()
    assert ",argent," in text
    assert ",or," in text
    pool = BoosterPool.of(load_catalog(DATA_DIR / "hoss.json", HossCatalog))
    masters = {path.master for line in pool.lines for path in line.paths}
    assert any(card.split(",")[0] in masters for row in text.splitlines() for card in row.split(";"))


def test_the_draw_works_its_tables_out_once_per_catalog(monkeypatch: pytest.MonkeyPatch) -> None:
    """A booster's draw takes its lines and its tier's rank cuts from tables made once per catalog, not
    worked out again for each booster or each card (issue 39: a purchase of ten draws sixty cards)."""
    pool = BoosterPool.of(load_catalog(DATA_DIR / "hoss.json", HossCatalog))
    assert pool.lines_of("orc") is pool.lines_of("orc")
    assert {line.race for line in pool.lines_of("orc")} == {"orc"}
    assert pool.lines_of(None) == pool.lines

    def worked_out(tier: int) -> tuple[int, int]:
        raise AssertionError(f"tier {tier}'s rank odds worked out again")

    monkeypatch.setattr(boosters, "_rank_pcm", worked_out)
    assert len(draw_booster(pool, random.Random(7), 9, "orc")) == CARDS_PER_BOOSTER
