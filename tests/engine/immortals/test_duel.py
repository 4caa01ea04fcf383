"""A duel through the engine: the draw, who engages, the engage-then-counter rounds, errors and how a duel
ends."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from engine.errors import IllegalAction, InvalidAction
from engine.immortals.catalog import TERRAINS, Effect
from engine.immortals.engine import ImmortalsSetupError
from engine.immortals.state import START_VITALITY, Choose
from engine.protocol import SPECTATOR
from tests.engine.immortals.helpers import ENGINE, catalog, line_up, options, setup, spell, state, unit

DECK = ("imp", "cherub", "skeleton", "elf_scout", "dwarf_miner", "goblin", "whelp", "grey_wolf")
ALL_SPELLS = tuple(s.id for s in catalog().spells)


def test_four_units_from_the_deck_and_eight_known_spells_are_drawn() -> None:
    s = ENGINE.new_game(setup(DECK, DECK, spells=list(ALL_SPELLS)), 3, options())
    for seat in (0, 1):
        assert len(s.units[seat]) == 4
        assert len({u.deck_index for u in s.units[seat]}) == 4
        assert all(DECK[u.deck_index] == u.card_id for u in s.units[seat])
        assert len(s.spells[seat]) == 8
        assert len({sp.spell_id for sp in s.spells[seat]}) == 8
    assert s.terrain in TERRAINS


def test_a_player_who_knows_fewer_than_eight_spells_draws_them_all() -> None:
    s = ENGINE.new_game(setup(DECK, DECK, spells=["curse", "poison"]), 3, options())
    assert sorted(sp.spell_id for sp in s.spells[0]) == ["curse", "poison"]


def test_the_draws_are_uniform_over_the_deck_and_the_terrains() -> None:
    """Over 4,000 seeds each of 8 deck cards is drawn half the time (4 of 8) and each terrain a quarter of
    the time; tolerance 5 standard errors (0.04 and 0.034)."""
    drawn: Counter[str] = Counter()
    terrains: Counter[str] = Counter()
    trials = 4000
    for seed in range(trials):
        s = ENGINE.new_game(setup(DECK, DECK), seed, options())
        drawn.update(u.card_id for u in s.units[0])
        terrains[s.terrain] += 1
    assert all(abs(drawn[c] / trials - 0.5) < 0.04 for c in DECK), drawn
    assert all(abs(terrains[t] / trials - 0.25) < 0.034 for t in TERRAINS), terrains


def test_the_terrain_option_fixes_the_terrain() -> None:
    assert ENGINE.new_game(setup(DECK, DECK), 1, options(terrain="marais")).terrain == "marais"
    with pytest.raises(ImmortalsSetupError):
        ENGINE.new_game(setup(DECK, DECK), 1, options(terrain="volcan"))


def test_the_higher_total_attack_engages() -> None:
    for seed in range(30):
        s = ENGINE.new_game(
            setup(DECK, ("archdemon", "elder_dragon", "hydra", "titanic_ogre")), seed, options()
        )
        totals = tuple(sum(u.attack for u in side) for side in s.units)
        assert s.engage_totals == totals
        if totals[0] != totals[1]:
            assert s.engager == (0 if totals[0] > totals[1] else 1)


ENGAGE = (
    "« Il a ensuite le choix de lancer un sort puis de choisir alors une première carte qu'il envoie attaquer"
    " son ennemi. Le deuxième joueur choisit à son tour un sort si il le souhaite, puis une carte pour"
    " contrer l'attaque. »"
)


@pytest.mark.parametrize("engager", [0, 1])
def test_the_engaging_seat_chooses_first_then_the_other_counters(engager: int) -> None:
    """ENGAGE, and « Les trois tours suivants se succèdent de la même façon. »: in every round the
    engaging seat alone may choose first; the other seat may choose only once it has, and its choice
    resolves the round."""
    s = state(engager=engager, s0=(spell("s0-0", Effect(stat="attack", value=1)),))
    other = 1 - engager
    for round_ in range(1, 5):
        assert ENGINE.current_players(s) == [engager]
        assert ENGINE.legal_actions(s, other) == []
        early = Choose(unit=f"u{other}-{round_ - 1}")
        with pytest.raises(IllegalAction) as refused:
            ENGINE.apply(s, other, early)
        assert refused.value.params["reason"] == "not_your_turn"
        s, events = ENGINE.apply(s, engager, Choose(unit=f"u{engager}-{round_ - 1}"))
        assert [e.kind for e in events] == ["engaged"]
        assert s.history == tuple(s.history[: round_ - 1])
        assert ENGINE.current_players(s) == [other]
        with pytest.raises(IllegalAction):
            ENGINE.apply(s, engager, Choose(unit=f"u{engager}-3"))
        s, events = ENGINE.apply(s, other, early)
        assert events[0].kind == "fight"
        assert len(s.history) == round_
    assert s.finished


def test_the_engaged_unit_and_spell_are_shown_to_the_counter_and_the_table() -> None:
    """ENGAGE: the second player counters knowing the attack, so the engaging seat's unit and spell are
    public the moment they are chosen (the `engaged` event, and every seat's view), its spell included."""
    s = ENGINE.new_game(setup(DECK, DECK, spells=list(ALL_SPELLS)), 5, options())
    engager = s.engager
    sent = s.spells[engager][2]
    attack = Choose(unit=s.units[engager][1].uid, spell=sent.sid)
    after, (event,) = ENGINE.apply(s, engager, attack)
    assert event.kind == "engaged"
    assert event.visible_to is None
    assert (event.data["unit"], event.data["spell"], event.data["spell_id"]) == (
        attack.unit,
        sent.sid,
        sent.spell_id,
    )
    for viewer in (0, 1, SPECTATOR):
        shown = ENGINE.view(after, viewer).engaged
        assert shown is not None
        assert (shown.seat, shown.unit, shown.spell and shown.spell.spell_id) == (
            engager,
            attack.unit,
            sent.spell_id,
        )
    counter = 1 - engager
    assert ENGINE.view(after, counter).spells_left[engager] == 7
    assert sent.sid not in ENGINE.hidden_cards(after, engager)
    done, _ = ENGINE.apply(after, counter, ENGINE.legal_actions(after, counter)[0])
    assert ENGINE.view(done, counter).engaged is None
    assert done.history[0].fighters[engager].spell == sent.spell_id


def test_a_duel_stored_with_a_secret_counter_still_hides_it_and_resolves() -> None:
    """A duel saved while both seats chose at once may hold the counter's secret choice with the engaging
    seat still to choose: nobody else sees it, the engaging seat plays, and the round resolves."""
    secret = Choose(unit="u1-2", spell="s1-0")
    s = state(engager=0, s1=(spell("s1-0", Effect(stat="defense", value=1)),), pending=(None, secret))
    assert ENGINE.current_players(s) == [0]
    other = s.model_copy(update={"pending": (None, Choose(unit="u1-0"))})
    for viewer in (0, SPECTATOR):
        assert ENGINE.view(s, viewer).engaged is None
        assert ENGINE.view(s, viewer).to_json() == ENGINE.view(other, viewer).to_json()
    assert {"s1-0", ENGINE.view(s, 1).choice_token} <= ENGINE.hidden_cards(s, 1)
    done, _ = ENGINE.apply(s, 0, Choose(unit="u0-0"))
    assert done.history[0].fighters[1].uid == "u1-2"
    assert done.history[0].fighters[1].spell_sid == "s1-0"


def test_a_seat_never_sees_the_other_seats_spells_before_they_are_cast() -> None:
    s = ENGINE.new_game(setup(DECK, DECK, spells=list(ALL_SPELLS)), 5, options())
    theirs = json.dumps(ENGINE.view(s, 1).to_json())
    assert all(json.dumps(sp.sid) not in theirs for sp in s.spells[0])
    assert ENGINE.view(s, 1).spells_left == (8, 8)
    assert {sp.sid for sp in s.spells[0]} == ENGINE.hidden_cards(s, 0)


def test_an_illegal_choice_is_refused_and_changes_nothing() -> None:
    s = state()
    for seat, action in (
        (0, Choose(unit="u1-0")),  # the other seat's unit
        (0, Choose(unit="u0-0", spell="s0-9")),  # a spell it does not hold
        (2, Choose(unit="u0-0")),
    ):
        with pytest.raises(IllegalAction):
            ENGINE.apply(s, seat, action)
    after, _ = ENGINE.apply(s, 0, Choose(unit="u0-0"))
    with pytest.raises(IllegalAction):
        ENGINE.apply(after, 0, Choose(unit="u0-1"))  # already engaged this round
    done, _ = ENGINE.apply(after, 1, Choose(unit="u1-0"))
    with pytest.raises(IllegalAction):
        ENGINE.apply(done, 0, Choose(unit="u0-0"))  # that unit has fought


@pytest.mark.parametrize(
    "raw",
    [
        {"kind": "choose", "unit": "u0-0"},
        {"kind": "play", "unit": "u0-0", "spell": None},
        {"kind": "choose", "unit": 3, "spell": None},
        {"kind": "choose", "unit": "u0-0", "spell": ""},
        {"kind": "choose", "unit": "x" * 65, "spell": None},
        ["choose", "u0-0"],
    ],
)
def test_data_that_is_no_choice_is_an_invalid_action(raw: object) -> None:
    with pytest.raises(InvalidAction):
        ENGINE.action_from_json(raw)


def test_a_choice_reads_back_from_its_json() -> None:
    for action in (Choose(unit="u0-1"), Choose(unit="u1-0", spell="s1-4")):
        assert ENGINE.action_from_json(json.loads(json.dumps(ENGINE.action_to_json(action)))) == action


@pytest.mark.parametrize(
    ("players", "extra_options", "reason"),
    [
        (setup(DECK[:3], DECK), {}, "deck"),
        (setup(("imp", "imp", "imp", "imp", "goblin"), DECK), {}, "deck"),
        (setup(("nope", *DECK[1:]), DECK), {}, "deck"),
        (setup(DECK, DECK, spells=["nope"]), {}, "unknown_spell"),
        (setup(DECK, DECK, spells=["curse", "curse"]), {}, "spells"),
        (setup(DECK, DECK, xp=[0, 1]), {}, "xp"),
        (setup(DECK, DECK, xp=[-1] * 8), {}, "xp"),
        (setup(DECK, DECK, colour="red"), {}, "extra"),
        (setup(DECK, DECK, xp="lots"), {}, "extra"),
        (setup(DECK, DECK)[:1], {}, "two_players"),
    ],
)
def test_every_invalid_setup_raises_the_one_setup_error(players, extra_options, reason) -> None:
    with pytest.raises(ImmortalsSetupError) as info:
        ENGINE.new_game(players, 1, options(**extra_options))
    assert info.value.params["reason"] == reason


def test_the_identical_card_limit_follows_the_levels_given_as_experience() -> None:
    """Two imps are fine at levels 1 and 4, refused at levels 1 and 5 (level 5 from 300 XP)."""
    deck = ("imp", "imp", "goblin", "whelp")
    ENGINE.new_game(setup(deck, deck, xp=[0, 160, 0, 0]), 1, options())
    with pytest.raises(ImmortalsSetupError):
        ENGINE.new_game(setup(deck, deck, xp=[0, 300, 0, 0]), 1, options())


def _play_out(s, pick=lambda legal: legal[0]):
    while not s.finished:
        for seat in ENGINE.current_players(s):
            s, _ = ENGINE.apply(s, seat, pick(ENGINE.legal_actions(s, seat)))
    return s


def test_a_player_killed_during_the_duel_loses_at_once() -> None:
    """12-Attack units with 5 damage (power 17) win every fight against 1/1 units: 30 vitality is gone
    in the second round and the duel ends there."""
    killers = tuple(unit(f"u0-{i}", attack=12, defense=12, damage=5) for i in range(4))
    s = _play_out(state(killers, line_up(1, attack=1, defense=1)))
    assert (s.winner, s.reason, len(s.history)) == (0, "ko", 2)
    assert s.vitality == (START_VITALITY, 0)
    outcome = ENGINE.outcome(s)
    assert outcome is not None
    assert (outcome.winners, outcome.reason) == ((0,), "immortals.outcome.ko")


def test_after_four_fights_the_higher_vitality_wins_and_equal_vitality_is_a_draw() -> None:
    strong = tuple(unit(f"u0-{i}", attack=4, defense=12) for i in range(4))
    s = _play_out(state(strong, line_up(1, attack=1, defense=1)))
    assert (s.winner, s.reason, len(s.history), s.vitality) == (0, "vitality", 4, (30, 14))
    idle = tuple(unit(f"u0-{i}", attack=0, defense=3) for i in range(4))
    drawn = _play_out(state(idle, tuple(unit(f"u1-{i}", attack=0, defense=3) for i in range(4))))
    assert (drawn.winner, drawn.reason) == (None, "draw")
    outcome = ENGINE.outcome(drawn)
    assert outcome is not None
    assert outcome.draw
    assert outcome.scores == (30, 30)
