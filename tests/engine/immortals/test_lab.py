"""The lab's Immortal's War duels (engine/immortals/lab.py): the duel of a seed played by the AI on both
seats, a terrain's duels drawn on that terrain, the line-up as the cards present, and an AI that chooses
the same whatever the other seat's secret spells."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable
from functools import cache
from typing import Any

import pytest

from engine.immortals import TERRAINS, Choose, ImmortalsCatalog, ImmortalsState, choose, lab
from engine.immortals.engine import drawn_terrain
from engine.immortals.lab import drawn_on, lab_battles, new_duel, play_duel
from engine.immortals.state import engaged, spells_left
from engine.protocol import PlayerSetup
from engine.rng import derive
from services.infra.catalogs import DATA_DIR, load_catalog

Policy = Callable[[ImmortalsState, int, random.Random], Choose]


@cache
def catalog() -> ImmortalsCatalog:
    return load_catalog(DATA_DIR / "immortals.json", ImmortalsCatalog)


def setup(seat: int, offset: int) -> PlayerSetup:
    cards = [c.id for c in catalog().cards][offset : offset + 8]
    spells = [s.id for s in catalog().spells][:8]
    return PlayerSetup(
        seat=seat, player_id=seat + 1, deck=tuple(cards), extra={"xp": [0] * 8, "spells": spells}
    )


MINE, THEIRS = setup(0, 0), setup(1, 8)


def test_a_lab_duel_is_the_seeds_duel_played_to_its_end() -> None:
    """« 4 unités sont tirées au sort » from each deck; four rounds at most (a K.O. ends the duel sooner)."""
    seeds = [1, 2, 3]
    battles = lab_battles(catalog(), MINE, lambda seed: THEIRS, None, seeds)
    assert battles == lab_battles(catalog(), MINE, lambda seed: THEIRS, None, seeds)
    for battle, seed in zip(battles, seeds, strict=True):
        start = new_duel(catalog(), (MINE, THEIRS), seed)
        state = play_duel(start, seed)
        assert battle.seed == seed
        assert (battle.won, battle.lost) == (state.winner == 0, state.winner == 1)
        assert battle.length == len(state.history)
        assert 1 <= battle.length <= 4
        assert set(battle.drawn) <= set(MINE.deck)
        assert battle.drawn == tuple(sorted({u.card_id for u in start.units[0]}))


def test_a_terrains_duels_are_duels_whose_own_draw_gave_that_terrain() -> None:
    """The lab on one terrain never fixes a table the game would not deal: each duel it plays is the duel
    of its seed, whose terrain draw gave that terrain."""
    for terrain in TERRAINS:
        seeds = [10, 11]
        for battle, seed in zip(
            lab_battles(catalog(), MINE, lambda s: THEIRS, terrain, seeds), seeds, strict=True
        ):
            assert battle.seed == drawn_on(catalog(), MINE, lambda s: THEIRS, terrain, seed)[0]
            assert new_duel(catalog(), (MINE, THEIRS), battle.seed).terrain == terrain


def test_a_seeds_terrain_is_read_from_its_draw_without_building_the_duel() -> None:
    """`drawn_terrain` replays `new_game`'s draws before the terrain's from the sizes of the decks and
    known spells alone: the same terrain as the whole duel, whatever the sizes (fewer spells than drawn,
    none, more)."""
    spells = [s.id for s in catalog().spells]
    ids = [c.id for c in catalog().cards]
    for seed in range(60):
        rng = random.Random(seed)
        setups = tuple(
            PlayerSetup(
                seat=seat,
                player_id=seat + 1,
                deck=tuple(ids[seat * 30 : seat * 30 + (size := rng.randint(4, 12))]),
                extra={"xp": [0] * size, "spells": spells[: rng.choice([0, 3, 8, 12])]},
            )
            for seat in (0, 1)
        )
        sizes = [(len(p.deck), len(p.extra["spells"])) for p in setups]
        assert drawn_terrain(seed, sizes) == new_duel(catalog(), (setups[0], setups[1]), seed).terrain


def test_a_terrains_duel_is_built_once_and_its_opponent_at_most_twice(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Candidates whose draw gives another terrain are skipped before their duel or their opponent is
    built: the first candidate's opponent gives the sizes, the chosen one's plays."""
    built: list[int] = []
    asked: list[int] = []

    def opponent(seed: int) -> PlayerSetup:
        asked.append(seed)
        return THEIRS

    def counting(*args: Any) -> ImmortalsState:
        built.append(args[2])
        return new_duel(*args)

    monkeypatch.setattr(lab, "new_duel", counting)
    for seed in range(20):
        built.clear()
        asked.clear()
        played, state = drawn_on(catalog(), MINE, opponent, "marais", seed)
        assert state.terrain == "marais"
        assert built == [played]
        assert asked in ([played], [derive(seed, lab.TERRAIN_LABEL, 0), played])


def test_an_opponent_whose_deck_changes_size_with_the_seed_is_refused() -> None:
    """The candidates' terrains are read with the first candidate's opponent's sizes: an opponent that
    changes size would make them wrong, so the lab refuses it rather than play another duel."""
    short = dataclasses.replace(THEIRS, deck=THEIRS.deck[:6], extra={"xp": [0] * 6, "spells": []})
    refused = 0
    for seed in range(10):
        first, second = (derive(seed, lab.TERRAIN_LABEL, k) for k in range(2))
        terrain = drawn_terrain(second, [(8, 8), (8, 8)])
        if drawn_terrain(first, [(8, 8), (8, 8)]) == terrain:
            continue

        def opponent(candidate: int, first: int = first) -> PlayerSetup:
            return THEIRS if candidate == first else short

        with pytest.raises(ValueError, match="change size"):
            drawn_on(catalog(), MINE, opponent, terrain, seed)
        refused += 1
    assert refused > 3


def peeking(state: ImmortalsState, seat: int, rng: random.Random) -> Choose:
    """A negative control: fights with the unit named after the other seat's first secret spell."""
    hidden = spells_left(state, 1 - seat)
    chosen = choose(state, seat, rng)
    if not hidden:
        return chosen
    units = [u for u in state.units[seat] if u.uid == chosen.unit] + [
        u for u in state.units[seat] if u.uid != chosen.unit
    ]
    fought = {r.fighters[seat].uid for r in state.history}
    free = [u.uid for u in units if u.uid not in fought]
    return Choose(unit=free[sum(map(ord, hidden[0].spell_id)) % len(free)], spell=chosen.spell)


def twin(rng: random.Random) -> random.Random:
    copy = random.Random()
    copy.setstate(rng.getstate())
    return copy


def _same_whatever_is_hidden(policy: Policy, seeds: range) -> tuple[int, int]:
    """At every choice of lab duels, the seat's choice on the duel as it is and with the other seat's
    spells not cast yet replaced by others of the catalog: (checked, differed)."""
    others = list(catalog().spells)
    checked = differed = 0
    for seed in seeds:

        def watching(state: ImmortalsState, seat: int, rng: random.Random) -> Choose:
            nonlocal checked, differed
            chosen = policy(state, seat, twin(rng))
            shown = engaged(state)  # the engaging seat's spell is public once it engages
            hidden = {s.sid for s in spells_left(state, 1 - seat)} - {shown.spell if shown else None}
            for k in range(2):
                shuffled = random.Random(f"{state.round}:{seat}:{k}").sample(
                    others, len(state.spells[1 - seat])
                )
                spells = tuple(
                    dataclasses.replace(
                        s, spell_id=o.id, effects=tuple(o.effects), terrain=o.terrain, family=o.family
                    )
                    if s.sid in hidden
                    else s
                    for s, o in zip(state.spells[1 - seat], shuffled, strict=True)
                )
                both = (state.spells[0], spells) if seat == 0 else (spells, state.spells[1])
                other = state.model_copy(update={"spells": both})
                if other.spells != state.spells:
                    checked += 1
                    differed += policy(other, seat, twin(rng)) != chosen
            return choose(state, seat, rng)

        play_duel(new_duel(catalog(), (MINE, THEIRS), seed), seed, watching)
    return checked, differed


def test_the_ai_chooses_the_same_whatever_the_other_seats_secret_spells() -> None:
    checked, differed = _same_whatever_is_hidden(choose, range(4))
    assert checked > 30
    assert differed == 0


def test_the_check_catches_a_policy_that_peeks_at_the_spells() -> None:
    checked, differed = _same_whatever_is_hidden(peeking, range(4))
    assert checked > 30
    assert differed > 0


def test_a_batch_builds_only_the_chosen_candidates_opponents() -> None:
    """`lab_battles` reads every seed's candidates with its first seed's opponent sizes: past the first
    seed, only the played candidate's opponent is built, and an opponent that changes size is still
    refused."""
    asked: list[int] = []

    def opponent(seed: int) -> PlayerSetup:
        asked.append(seed)
        return THEIRS

    seeds = list(range(12))
    battles = lab_battles(catalog(), MINE, opponent, "marais", seeds)
    assert asked == [derive(0, lab.TERRAIN_LABEL, 0), *(b.seed for b in battles)]
    short = dataclasses.replace(THEIRS, deck=THEIRS.deck[:6], extra={"xp": [0] * 6, "spells": []})
    with pytest.raises(ValueError, match="change size"):
        lab_battles(
            catalog(),
            MINE,
            lambda seed: THEIRS if seed == derive(0, lab.TERRAIN_LABEL, 0) else short,
            "marais",
            seeds,
        )
