"""What a challenge's preparation and launch read (issue 39): the preparation page counts the free copies
once for its check and its page; the launch, which checks the bonus again in its own unit, counts none
when there is no bonus; each reads whole only the packs it names, the opposing one once."""

from __future__ import annotations

from collections import Counter
from datetime import timedelta
from typing import Any

import pytest

from core.clock import ManualClock
from engine.dinocard import DinocardCatalog
from services.dinocard import DinocardServices, packs, preparation
from services.shared.collecting import DeckInvalid
from tests.services.dinocard.conftest import ALICE, BOB, element_pack, fire_pack
from tests.services.dinocard.test_battles import launch


def counting(monkeypatch: pytest.MonkeyPatch, calls: Counter[str]) -> None:
    def counted(module: Any, name: str) -> None:
        original = getattr(module, name)

        def wrapper(*args: Any, **kwargs: Any) -> Any:
            calls[name] += 1
            return original(*args, **kwargs)

        monkeypatch.setattr(module, name, wrapper)

    counted(packs, "_row")  # a pack read whole: its cards and skills parsed
    counted(preparation, "free_counts")
    counted(preparation, "traded_counts")


async def test_a_launch_after_its_preparation_counts_the_free_copies_once(
    dino: DinocardServices, clock: ManualClock, catalog: DinocardCatalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    await dino.packs.create(ALICE, "Bois", element_pack(catalog, "bois"))
    mine = (await dino.packs.create(ALICE, "Feu", fire_pack(catalog))).pack.id
    theirs = (await dino.packs.create(BOB, "Eau", element_pack(catalog, "eau"))).pack.id
    await dino.packs.spend(ALICE, "Feu", "bonus", 1)
    clock.advance(timedelta(days=1))
    calls: Counter[str] = Counter()
    counting(monkeypatch, calls)

    prep = await dino.battles.prepare(ALICE, "Feu", theirs, ())
    assert prep.daily_left == 2
    assert prep.choices.items
    assert calls == {"_row": 2, "free_counts": 1}  # the pack named and the opposing one
    match = await launch(dino, mine, theirs)
    assert match.number == 1
    assert calls == {"_row": 4, "free_counts": 1}

    # with a bonus the launch counts them (its own check), and a shortage says whether a trade holds some
    calls.clear()
    in_a_pack = element_pack(catalog, "bois")[0]
    with pytest.raises(DeckInvalid) as refused:
        await launch(dino, mine, theirs, key="k2", bonus=(in_a_pack,))
    assert [p.key for p in refused.value.problems] == ["dinocard.pack.problem.copies_free"]
    assert calls == {"_row": 2, "free_counts": 1, "traded_counts": 1}
