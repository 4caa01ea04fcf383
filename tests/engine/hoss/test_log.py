"""The battle log: every hit with its outcome, statuses, ticks, deaths, evolutions, and per-round summaries,
complete enough to render and replay a battle round by round."""

from __future__ import annotations

import json
from collections import defaultdict

from engine.hoss.battle import Battle
from engine.hoss.catalog import Rarity
from engine.hoss.simulate import first_policy, prepare, random_policy, run
from tests.engine.hoss.helpers import DECK_A, DECK_B, deck_catalog, player

CATALOG = deck_catalog()
RESULTS = {"hit", "dodge", "avoid", "block", "deflect"}


def battle(
    seed: int, rarity: Rarity = "divin", stars: int = 5, buffs: tuple[str, str] = ("buff_soins", "buff_pv")
) -> Battle:
    decks, cards = prepare(
        (player(0, DECK_A, buffs, rarity, stars), player(1, DECK_B, buffs, rarity, stars)), CATALOG
    )
    return run(Battle.start(decks, cards, seed, log=True), (random_policy(seed), first_policy))


def test_every_hit_is_recorded_with_its_outcome() -> None:
    kinds: set[str] = set()
    results: set[str] = set()
    for seed in range(15):
        b = battle(seed, buffs=("buff_marqueur_aleatoire", "buff_soins"))
        json.dumps(b.records)  # JSON-able as it is
        for record in b.records:
            for e in record["events"]:
                kinds.add(e["k"])
                assert 0 <= e["t"] <= 5000
                if e["k"] == "hit":
                    assert e["src"][0] in "ab"
                    assert e["tgt"][0] in "ab"
                    results.add(e["res"])
                    assert e["res"] in RESULTS
                    if e["res"] in ("hit", "block", "deflect"):
                        assert isinstance(e["dmg"], int)
                    if e["res"] == "hit":
                        assert e["dmg"] >= 100
                        assert e["hp"] >= 0
                    if "aimed" in e:  # intercepted: the Défenseur took it
                        assert e["aimed"] != e["tgt"]
    assert {"hit", "dodge", "block"} <= results
    assert {"play", "hit", "status", "tick", "death", "evolve"} <= kinds


def test_each_round_ends_with_both_sides_summary() -> None:
    b = battle(3)
    assert [r["round"] for r in b.records] == list(range(1, b.round + 1))
    for record in b.records:
        assert [side["seat"] for side in record["sides"]] == [0, 1]
        for side in record["sides"]:
            assert set(side) == {"seat", "hand", "pile", "synergy", "creatures"}
            for creature in side["creatures"]:
                assert 0 < creature["hp"] <= creature["hp_max"]


def test_the_log_accounts_for_every_point_of_damage() -> None:
    """Replaying the log's damage, heals and revives gives each creature's PV in every summary."""
    for seed in range(10):
        b = battle(seed, rarity="basique", stars=0, buffs=("buff_degat", "buff_chance_crit"))  # no evolution
        taken: dict[str, int] = defaultdict(int)
        for record in b.records:
            for e in record["events"]:
                if e["k"] in ("hit", "tick", "deflected") and e.get("dmg"):
                    taken[e["tgt"]] += e["dmg"] - e.get("shield", 0)
                elif e["k"] == "heal":
                    taken[e["tgt"]] -= e["amt"]
            for side in record["sides"]:
                for c in side["creatures"]:
                    assert c["hp_max"] - c["hp"] == taken[c["uid"]], (seed, record["round"], c)


def test_creatures_appear_by_play_and_leave_by_death() -> None:
    for seed in range(10):
        b = battle(seed)
        present: set[str] = set()
        for record in b.records:
            for e in record["events"]:
                if e["k"] == "play":
                    present.add(e["tgt"])
                elif e["k"] == "death":
                    present.discard(e["tgt"])
                elif e["k"] == "revive":
                    present.add(e["tgt"])
            assert present == {c["uid"] for side in record["sides"] for c in side["creatures"]}
