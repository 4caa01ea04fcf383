"""The battle's course: hands and draws, one card per round, pauses only for decisions, the end of a
round in the rulebook's order, losing, and the 60-round limit decided on points."""

from __future__ import annotations

from engine.hoss.actions import Pass, Play
from engine.hoss.battle import Battle
from engine.hoss.rules import MAX_ROUNDS
from engine.hoss.simulate import first_policy, passive_policy, prepare, run
from tests.engine.hoss.helpers import (
    DECK_A,
    DECK_B,
    Unit,
    arena,
    buff,
    creature,
    deck_catalog,
    get,
    player,
)

CATALOG = deck_catalog()


def start(
    seed: int = 1, a: tuple[str, ...] = DECK_A, b: tuple[str, ...] = DECK_B, log: bool = True
) -> Battle:
    decks, cards = prepare((player(0, a), player(1, b)), CATALOG)
    return Battle.start(decks, cards, seed, log=log)


def test_each_seat_starts_with_three_rang_1_cards() -> None:
    b = start()
    for side in b.sides:
        assert len(side.hand) == 3
        assert len(side.pile) == 3
        assert sorted(side.hand + side.pile) == [f"{'ab'[side.seat]}{i}" for i in range(1, 7)]
        assert all(b.cards[side.line(uid).r1.card].rank == 1 for uid in side.hand)
    assert b.waiting() == [0, 1]  # a card to play: the battle waits for both seats


def test_the_deal_depends_on_the_seed() -> None:
    hands = {tuple(start(seed).sides[0].hand) for seed in range(30)}
    assert len(hands) > 10


def test_one_draw_per_round_from_the_second_round() -> None:
    b = start()
    sizes = []
    while not b.over and b.round < 5:
        for seat in b.waiting():
            b.answer(seat, Pass())
        b.resume()
        sizes.append(len(b.sides[0].hand))
    assert sizes == [4, 5, 6, 6, 6]


def test_at_most_one_card_per_round() -> None:
    b = start()
    first = next(a for a in b.legal_actions(0) if isinstance(a, Play))
    b.answer(0, first)
    assert b.legal_actions(0) == []


def test_a_defender_card_needs_an_attacker_in_play() -> None:
    b = start()
    for side in b.sides:
        plays = [a for a in b.legal_actions(side.seat) if isinstance(a, Play)]
        assert all(not side.is_defender_card(a.card) for a in plays)
        assert len(plays) == sum(1 for uid in side.hand if not side.is_defender_card(uid))


def test_rang_2_and_3_only_come_by_evolution() -> None:
    for seed in range(20):
        b = run(start(seed), (first_policy, first_policy))
        evolved = {e["tgt"] for r in b.records for e in r["events"] if e["k"] == "evolve"}
        drawn = [uid for _, _, uid in b.draws]
        assert all(b.sides[int(uid[0] == "b")].line(uid).r1.card.endswith("_1") for uid in drawn)
        for r in b.records:
            for side in r["sides"]:
                for c in side["creatures"]:
                    assert c["rank"] == 1 or c["uid"] in evolved


def test_the_battle_pauses_only_when_a_decision_exists() -> None:
    no_defenders = ("hg", "oc", "sa", "sm", "ol", "ha")
    chained = 0
    for seed in range(20):
        b = start(seed, no_defenders, no_defenders)
        while not b.over:
            for seat in b.waiting():
                while b.legal_actions(seat):
                    b.answer(seat, b.legal_actions(seat)[0])
            rounds = b.resume()
            assert rounds  # a resume always fights at least one round
            if not b.over:  # it stopped for a reason: a path to choose or a card to play
                assert any(s.kind == "path" or s.plays for side in b.sides for s in side.steps)
            for record in rounds[:-1]:  # and it went on only when there was nothing to decide
                chained += 1
                assert not [e for e in record["events"] if e["k"] == "evolve_choice"]
                assert all(side["hand"] == 0 for side in record["sides"])
    assert chained > 5


def test_passing_is_allowed_and_a_seat_with_cards_left_is_not_beaten() -> None:
    b = run(start(3), (first_policy, passive_policy))
    assert b.over
    assert b.reason == "hoss.outcome.points_creatures"
    assert b.winners == (0,)
    assert b.round == MAX_ROUNDS
    assert len(b.sides[1].hand) == 6  # it never played, and always had cards to play


def test_60_rounds_then_points_creatures_then_pv_then_a_draw() -> None:
    b = run(start(3), (passive_policy, passive_policy))
    assert (b.round, b.reason, b.winners) == (MAX_ROUNDS, "hoss.outcome.points_draw", ())
    duel = arena([creature("x_1", "humain", "mage", pv=100)], [creature("y_1", "orc", "mage", pv=100)])
    get(duel, "a1").damage = 10
    duel.decide_on_points()
    assert (duel.reason, duel.winners) == ("hoss.outcome.points_pv", (1,))
    crowd = arena(
        [creature("x_1", "humain", "mage", pv=100), creature("w_1", "orc", "defenseur")],
        [creature("y_1", "orc", "mage", pv=900)],
    )
    crowd.decide_on_points()
    assert (crowd.reason, crowd.winners) == ("hoss.outcome.points_creatures", (0,))  # Défenseurs count here


def test_a_player_loses_with_no_creature_in_play_and_no_card_left() -> None:
    b = arena([creature("x_1", "humain", "mage", pv=100)], [creature("y_1", "orc", "mage", pv=100)])
    b.take(get(b, "a1"), 10**6, 1000, "test")
    assert b.over
    assert (b.winners, b.reason) == ((1,), "hoss.outcome.elimination")
    b = arena(
        [creature("x_1", "humain", "mage", pv=100)],
        [creature("y_1", "orc", "mage")],
        hand_a=[creature("z_1", "humain", "guerrier")],
    )
    b.take(get(b, "a1"), 10**6, 1000, "test")
    assert not b.over  # a card left to play


def test_a_lone_defender_is_a_creature_in_play_and_keeps_its_player_in_the_battle() -> None:
    """« Un joueur perd quand il n'a plus de créature en jeu »: a Défenseur in play is a creature in play."""
    b = arena(
        [creature("x_1", "humain", "mage", pv=100), creature("w_1", "humain", "defenseur", pv=100)],
        [creature("y_1", "orc", "mage")],
    )
    b.take(get(b, "a1"), 10**6, 1000, "test")
    assert get(b, "a2").alive
    assert not b.over
    b.take(get(b, "a2"), 10**6, 2000, "test")  # it can still be hit; its death ends the battle
    assert b.over
    assert (b.winners, b.reason) == ((1,), "hoss.outcome.elimination")
    b = arena(
        [creature("x_1", "humain", "mage", pv=100)],
        [creature("y_1", "orc", "mage")],
        hand_a=[creature("w_1", "humain", "defenseur")],
    )
    b.take(get(b, "a1"), 10**6, 1000, "test")
    assert b.over  # a Défenseur card cannot be played without an attacker: nothing left to play


def test_the_enemy_targets_a_lone_defender_and_the_60_round_rule_decides_if_it_holds() -> None:
    b = arena(
        [creature("x_1", "humain", "mage", pv=100), creature("w_1", "humain", "defenseur", pv=5000)],
        [creature("y_1", "orc", "mage", pv=100, atk=1)],
    )
    b.take(get(b, "a1"), 10**6, 1000, "test")
    b.resume()
    hits = [e for r in b.records for e in r["events"] if e["k"] == "hit" and e.get("tgt") == "a2"]
    assert hits  # the lone Défenseur was the target of the enemy's hits
    assert b.round == MAX_ROUNDS
    assert b.reason == "hoss.outcome.points_pv"
    assert b.winners == (0,)


def test_the_end_of_a_round_goes_poison_soins_evolution_defenders() -> None:
    young = creature("pup_1", "orc", "guerrier", pv=100)
    grown = creature("pup_2a", "orc", "guerrier", rank=2, parent="pup_1", pv=160)
    b = arena(
        [
            creature("p1_1", "humain", "guerrier", pv=100),
            Unit(young, "or", 3, later=[(grown, "basique", 0)]),
            creature("wall_1", "humain", "defenseur", pv=200),
        ],
        [creature("t_1", "sylvestre", "guerrier", pv=900)],
        buffs_a=[(buff("soins", 0.05), "basique", 0)],
    )
    get(b, "a2").poison = 500
    get(b, "a2").burn = 100
    b.take(get(b, "a1"), 10**6, 1000, "test")  # the Défenseur's protégé dies
    b.entries = []
    b.rnd = lambda: 0.0  # every chance succeeds
    b.end_of_round()
    assert [e["k"] for e in b.entries] == ["tick", "heal", "evolve", "place", "out"]
    assert [e["t"] for e in b.entries] == [5000] * 5


def test_a_battle_always_ends() -> None:
    for seed in range(30):
        b = run(start(seed, log=False), (first_policy, first_policy))
        assert b.over
        assert b.round <= MAX_ROUNDS
        assert b.reason.startswith("hoss.outcome.")
