"""The rulebook's battle sequence, clause by clause: costs, the rail, hatching, combat, the end."""

from __future__ import annotations

import pytest

from engine.dinocard.battle import COUNTDOWN, MAX_ROUNDS
from engine.dinocard.catalog import DinocardCard
from engine.dinocard.log import to_events
from tests.engine.dinocard.helpers import Fight, card, dinoz, flicker, phase_of, rock

SPELL = card("spell", "incantation", element="eau", colored=2, grey=1, damage_player=1)


@pytest.mark.parametrize(
    ("energies", "paid"),
    [
        # Rulebook: a water spell of 2 blue and 1 grey bubbles needs 3 energies, two of them water.
        (["eau", "eau", "feu"], True),
        (["eau", "eau", "eau"], True),
        (["eau", "feu", "bois"], False),  # one water only
        (["eau", "eau"], False),  # two energies only
        ([], False),
    ],
)
def test_a_cost_needs_its_coloured_bubbles_and_enough_energies_in_all(
    energies: list[str], paid: bool
) -> None:
    pack = [rock(f"r{i}", element) for i, element in enumerate(energies)]
    fight = Fight([*pack, SPELL], [])
    phase = len(energies) + 1
    expected = ["turn", "cast", "hit_player", "graveyard"] if paid else ["turn", "energy"]
    assert [k for k in fight.kinds(phase, 0) if k not in ("board", "countdown")] == expected
    if not paid:
        assert fight.step(phase, 0)[-2][1] == {
            "seat": 0,
            "card": f"a{phase - 1}",
            "card_id": "spell",
            "reason": "unpaid",
        }


def test_energies_are_not_spent_by_a_cost() -> None:
    spells = [card(f"s{i}", "incantation", colored=1, damage_player=1) for i in range(3)]
    fight = Fight([rock("r"), *spells], [])
    assert len(fight.all("cast", seat=0)) == 3
    assert fight.board(4, 0)["energy"][0]["feu"] == 1


def test_an_unpaid_card_of_any_type_fills_the_energy_zone_with_its_element() -> None:
    costly = [
        dinoz("d", colored=1, element="bois"),
        card("o", "objet", element="ciel", colored=1, start_heal=1),
        card("e", "enchantement", element="foudre", colored=1, force=1),
    ]
    fight = Fight(costly, [])
    assert [d["reason"] for _, d in fight.all("energy")[:3]] == ["unpaid"] * 3
    assert fight.board(3, 2)["energy"][0] == {"feu": 0, "bois": 1, "eau": 0, "foudre": 1, "ciel": 1}


def test_a_paid_dinoz_goes_face_down_to_the_right_most_free_place_then_to_the_graveyard() -> None:
    fight = Fight([dinoz(f"d{i}", eclosion=5) for i in range(4)], [])
    assert [d["slot"] for _, d in fight.all("egg", seat=0)] == [2, 1, 0]
    index, grave = fight.all("graveyard", seat=0)[0]
    assert phase_of(index) == (4, 0)
    assert grave == {"seat": 0, "card": "a3", "card_id": "d3", "reason": "rail_full"}


def test_after_a_death_and_a_shift_the_right_most_free_place_is_used_again() -> None:
    """The dinoz at slot 2 dies while x is at slot 1; x shifts to slot 0, so y goes to slot 2 and z to 1."""
    a = [dinoz("weak", force=0, endurance=1), dinoz("x", eclosion=5), dinoz("y", eclosion=5), dinoz("z")]
    fight = Fight(a, [dinoz("killer", force=3)], first=1)
    assert [d["slot"] for _, d in fight.all("egg", seat=0)] == [2, 1, 2, 1]


def test_the_egg_is_public_but_its_card_only_for_its_owner() -> None:
    fight = Fight([dinoz("d", eclosion=2)], [])
    egg, card_of = fight.step(1, 0)[1:3]
    assert egg == ("egg", {"seat": 0, "slot": 2})
    assert card_of == ("egg_card", {"seat": 0, "slot": 2, "card": "a0", "card_id": "d"})
    assert [e.visible_to for e in to_events(fight.result.log[0][1], fight.decks)] == [None, frozenset({0})]
    public = fight.board(1, 0)["rails"][0][2]
    assert public == {"hatched": False, "markers": 0, "damage": 0, "poisoned": 0}
    assert fight.board(1, 0, viewer=0)["rails"][0][2]["card_id"] == "d"


@pytest.mark.parametrize(("eclosion", "hatch_phase"), [(1, 2), (2, 3), (4, 5)])
def test_an_egg_gets_a_marker_each_start_of_turn_and_hatches_at_the_end_of_the_turn(
    eclosion: int, hatch_phase: int
) -> None:
    fight = Fight([dinoz("d", eclosion=eclosion)], [])
    markers = [phase_of(i) for i, _ in fight.all("markers", seat=0)]
    assert markers[: hatch_phase - 1] == [(p, 0) for p in range(2, hatch_phase + 1)]
    index, hatched = fight.all("hatch")[0]
    assert phase_of(index) == (hatch_phase, 0)
    assert hatched == {"seat": 0, "slot": 2, "card": "a0", "card_id": "d"}
    assert fight.kinds(hatch_phase, 0)[-2:] == ["hatch", "board"]


def test_combat_goes_left_to_right_first_player_first_and_deaths_come_after_every_attack() -> None:
    a = [dinoz("a_right"), dinoz("a_mid", force=9), dinoz("a_left", eclosion=5)]
    b = [dinoz("b_right"), dinoz("b_mid", force=9), dinoz("b_left", eclosion=5)]
    fight = Fight(a, b)
    attacks = [(d["slot"], d["seat"]) for k, d in fight.step(3, 2) if k == "attack"]
    assert attacks == [(1, 0), (1, 1), (2, 0), (2, 1)]
    # Both middle dinoz kill each other: the second struck although its damage was already lethal.
    died = [(d["seat"], d["card_id"]) for k, d in fight.step(3, 2) if k == "died"]
    assert died == [(0, "a_mid"), (1, "b_mid")]
    assert fight.kinds(3, 2)[-5:] == ["died", "shift", "died", "shift", "board"]
    rail = fight.board(3, 2)["rails"][0]
    assert [s and s.get("card_id") for s in rail] == [None, "a_right", None]  # the egg at 0 is hidden
    assert rail[0] is not None
    assert rail[0]["hatched"] is False


def test_survivors_do_not_shift_when_nobody_dies() -> None:
    fight = Fight([dinoz("d", force=1)], [])
    assert not fight.all("shift")
    assert fight.board(3, 2)["rails"][0][2]["card_id"] == "d"


def test_a_dinoz_facing_nothing_or_an_egg_hits_the_player() -> None:
    fight = Fight([dinoz("a", force=2), dinoz("a2", force=3, eclosion=5)], [dinoz("egg", eclosion=5)])
    attack = next(d for k, d in fight.step(2, 2) if k == "attack")
    assert attack == {"seat": 0, "slot": 2, "card": "a0", "card_id": "a", "target_slot": None, "amount": 2}
    assert fight.board(2, 2)["life"] == [20, 18]


def test_a_player_at_zero_life_loses_at_the_end_of_the_step() -> None:
    fight = Fight([flicker(damage=3), dinoz("later")], [dinoz("b")], life=(20, 3))
    assert len(fight.steps) == 1
    assert fight.kinds(1, 0)[-2:] == ["board", "ended"]
    assert fight.end == {"winner": 0, "reason": "ko", "life": [20, 0]}
    assert (fight.result.winner, fight.result.life) == (0, (20, 0))


def test_both_players_at_zero_at_the_end_of_a_step_is_a_draw() -> None:
    fight = Fight([dinoz("a", force=2, flying=0)], [dinoz("b", force=2, flying=0)], life=(2, 2))
    assert len(fight.steps) == 6
    assert fight.end == {"winner": None, "reason": "double_ko", "life": [0, 0]}


def test_ten_phases_once_both_packs_are_empty_then_more_life_wins() -> None:
    fight = Fight([flicker()], [rock(f"r{i}") for i in range(4)])
    counts = [(phase_of(i), d["phases"]) for i, d in fight.all("countdown")]
    assert counts == [((5 + n, 0), COUNTDOWN - n) for n in range(COUNTDOWN)]  # from the 5th phase
    assert len(fight.steps) == 3 * (4 + COUNTDOWN)
    assert fight.end == {"winner": 0, "reason": "life", "life": [20, 19]}
    assert fight.steps[-1][-1][0] == "ended"


def test_equal_life_after_the_countdown_plays_a_new_round_then_a_draw() -> None:
    pack: list[DinocardCard] = [flicker()]
    fight = Fight(pack, list(pack))
    rounds = [(i, d["round"]) for i, d in fight.all("round")]
    per_round = 3 * (1 + COUNTDOWN)
    assert rounds == [(per_round * n, n + 1) for n in range(1, MAX_ROUNDS)]
    assert len(fight.all("cast")) == 2 * MAX_ROUNDS  # every round replays both packs
    assert fight.board(1, 0)["life"] == [20, 19]
    first_of_round_2 = fight.steps[per_round]
    assert next(d for k, d in first_of_round_2 if k == "board")["life"] == [20, 19]  # life reset, then hit
    assert fight.end == {"winner": None, "reason": "tie", "life": [19, 19]}
    assert fight.result.rounds == MAX_ROUNDS


def test_poison_wounds_at_the_start_of_the_owners_turn_before_the_draw() -> None:
    venom = card("venom", "enchantement", venom=2)
    fight = Fight([dinoz("victim", endurance=9), rock("r")], [venom])
    assert fight.step(1, 1)[1] == (
        "enchant",
        {"seat": 1, "card": "b0", "card_id": "venom", "target_seat": 0, "slot": 2},
    )
    wound = next(d for k, d in fight.step(2, 0) if k == "poison_wound")
    assert wound == {"seat": 0, "slot": 2, "card": None, "amount": 2}  # still an egg: its card stays hidden
    kinds = fight.kinds(2, 0)
    assert kinds.index("poison_wound") < kinds.index("energy") < kinds.index("hatch")
    wounds = [phase_of(i) for i, _ in fight.all("poison_wound")]
    assert wounds == [(p, 0) for p in range(2, 7)]
    index, died = fight.all("died")[0]
    assert phase_of(index) == (6, 0)  # 5 wounds of 2 reach its endurance of 9
    assert died["card_id"] == "victim"


def test_arc_sacrifices_one_energy_of_the_cards_element_once_played() -> None:
    archer = dinoz("archer", colored=1, arc=0)
    fight = Fight([rock("r1"), rock("r2"), rock("r3", "eau"), archer], [])
    assert fight.kinds(4, 0)[1:4] == ["egg", "egg_card", "arc"]
    assert fight.step(4, 0)[3][1] == {"seat": 0, "element": "feu"}
    board = fight.board(4, 0)
    assert board["energy"][0] == {"feu": 1, "bois": 0, "eau": 1, "foudre": 0, "ciel": 0}
    assert board["graveyard"][0] == 1


def test_arc_does_nothing_for_a_card_that_was_not_played() -> None:
    fight = Fight([rock("r"), dinoz("archer", colored=2, arc=0)], [])
    assert not fight.all("arc")
    assert fight.board(2, 0)["energy"][0]["feu"] == 2


def test_an_incantation_resolves_then_goes_to_the_graveyard_or_without_target_to_the_energy_zone() -> None:
    fireball = card("fireball", "incantation", damage_dinoz=3)
    fight = Fight([fireball, rock("r"), card("fireball2", "incantation", damage_dinoz=3)], [dinoz("b")])
    assert fight.step(1, 0)[1][1] == {"seat": 0, "card": "a0", "card_id": "fireball", "reason": "no_target"}
    assert fight.kinds(3, 0)[1:5] == ["cast", "hit_dinoz", "graveyard", "board"]
    assert fight.step(3, 0)[3][1]["reason"] == "resolved"
    assert fight.board(3, 0)["energy"][0]["feu"] == 2
