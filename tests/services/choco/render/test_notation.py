"""The one-line notation of a turn: keywords in both languages, every reference form, each error, and the
round trip text -> steps over random legal turns of real games."""

from __future__ import annotations

import random

import pytest

from core.errors import BadInput
from engine.choco.state import (
    Attack,
    Card,
    ChocoState,
    DeckAttack,
    Discard,
    EndTurn,
    Move,
    PlayEffect,
    Prepare,
    Side,
    Step,
    Summon,
    Turn,
    TurnProgress,
)
from engine.rng import RngState
from services.choco.notation import NotationError, UnownedCard, describe, parse_turn, to_text
from tests.services.choco.render.games import ENGINE, catalog, new_game, render


def wizard(uid: str, card_id: str) -> Card:
    card = catalog().card(card_id)
    assert card is not None
    assert card.pa is not None
    assert card.pv is not None
    return Card(uid=uid, card_id=card_id, pa=card.pa, pv=card.pv, max_pv=card.pv)


def pure(uid: str, card_id: str) -> Card:
    return Card(uid=uid, card_id=card_id, pa=0, pv=0, max_pv=0, pure=True)


def table() -> ChocoState:
    """Seat 0 to play. Hand: M1 Aglaé Pommeverte, M2 Éclair de poche (an enemy target), M3 Mère Demdike,
    M4 Mère Holle, M5 Aglaé again (a second copy), M6 Bertille Écume (an ally target). Front: F1 Capucine
    Cendrée, F2 Dorothée Balai; reserve: R1 Eudes Lentille. The opponent: AF1 Honorine Brindille, AF2 Ignace
    Fiole, AR1 Fulbert Cornemuse; Gervaise Chaudron in their hand."""
    ids = {"eclair_de_poche", "mere_holle", "mere_demdike", "bertille_ecume"}
    effects = {c.id: c.effect for c in catalog().cards if c.effect is not None and c.id in ids}
    me = Side(
        pioche=(wizard("c20", "barnabe_crapaud"),),
        hand=(
            wizard("c1", "aglae_pommeverte"),
            pure("c2", "eclair_de_poche"),
            wizard("c3", "mere_demdike"),
            wizard("c4", "mere_holle"),
            wizard("c5", "aglae_pommeverte"),
            wizard("c6", "bertille_ecume"),
        ),
        front=(wizard("c7", "capucine_cendree"), wizard("c8", "dorothee_balai")),
        reserve=(wizard("c9", "eudes_lentille"),),
        graveyard=(wizard("c10", "josephine_grelotte"),),
    )
    them = Side(
        pioche=(wizard("c30", "lambert_potiron"),),
        hand=(wizard("c31", "gervaise_chaudron"),),
        front=(wizard("c32", "honorine_brindille"), wizard("c33", "ignace_fiole")),
        reserve=(wizard("c34", "fulbert_cornemuse"),),
    )
    return ChocoState(
        sides=(me, them),
        player_ids=(1, 2),
        rng=RngState(seed=1),
        turn=3,
        active=0,
        progress=TurnProgress(),
        effects=effects,
    )


def parse(text: str) -> tuple[Step, ...]:
    return parse_turn(text, table(), 0, catalog())


@pytest.mark.parametrize(
    ("text", "step"),
    [
        ("invoque M1 front", Summon(card="c1", line="front")),
        ("summon M1 reserve", Summon(card="c1", line="reserve")),
        ("Invoque M1 Réserve", Summon(card="c1", line="reserve")),
        ("INVOQUE m1", Summon(card="c1", line="front")),
        ("effet M2 -> AF1", PlayEffect(card="c2", targets=("c32",))),
        ("effect M2", PlayEffect(card="c2")),
        ("déplace F1 réserve", Move(card="c7", line="reserve")),
        ("deplace R1 front", Move(card="c9", line="front")),
        ("move r1 FRONT", Move(card="c9", line="front")),
        ("attaque F1 > AF2", Attack(attacker="c7", target="c33")),
        ("attack F2 > OF1", Attack(attacker="c8", target="c32")),
        ("attaque F1 > pioche", DeckAttack(attacker="c7")),
        ("attack F1 > DECK", DeckAttack(attacker="c7")),
        ("attaque F1 -> AF1", Attack(attacker="c7", target="c32")),
        ("défausse M3", Discard(card="c3")),
        ("defausse M3", Discard(card="c3")),
        ("discard M3", Discard(card="c3")),
    ],
)
def test_keywords_in_both_languages(text: str, step: object) -> None:
    assert parse(text) == (step,)


@pytest.mark.parametrize(
    ("text", "step"),
    [
        ("invoque Aglaé Pommeverte", Summon(card="c1", line="front")),
        ("invoque aglae pommeverte reserve", Summon(card="c1", line="reserve")),
        ("summon Aglaé Greenapple", Summon(card="c1", line="front")),
        ("invoque Agl", Summon(card="c1", line="front")),
        ("invoque Mère Holle", Summon(card="c4", line="front")),
        ("effet Éclair -> Honorine", PlayEffect(card="c2", targets=("c32",))),
        ("effet eclair de poche -> AR1", PlayEffect(card="c2", targets=("c34",))),
        ("effect Pocket Lightning -> or1", PlayEffect(card="c2", targets=("c34",))),
        ("invoque M6 -> F2", Summon(card="c6", line="front", targets=("c8",))),
        ("invoque Bertille -> Dorothée", Summon(card="c6", line="front", targets=("c8",))),
        ("déplace Capucine réserve", Move(card="c7", line="reserve")),
        ("attaque Dorothée Balai > Ignace Fiole", Attack(attacker="c8", target="c33")),
        ("attaque Dor > Ign", Attack(attacker="c8", target="c33")),
        ("attaque M1 > AF1", Attack(attacker="c1", target="c32")),
        ("attaque Aglaé > AF1", Attack(attacker="c1", target="c32")),
        ("défausse Capucine", Discard(card="c7")),
    ],
)
def test_every_reference_form(text: str, step: object) -> None:
    assert parse(text) == (step,)


def test_steps_are_separated_by_semicolons_or_newlines_and_copies_are_told_apart() -> None:
    assert parse(
        "invoque M4 reserve; effet M2 -> AF1\nattaque M4 > AF2 ;; défausse Aglaé; défausse Aglaé"
    ) == (
        Summon(card="c4", line="reserve"),
        PlayEffect(card="c2", targets=("c32",)),
        Attack(attacker="c4", target="c33"),
        Discard(card="c1"),
        Discard(card="c5"),
    )


def test_references_resolve_against_the_start_of_the_turn() -> None:
    # M2 stays the Éclair even though M1 left the hand in step 1.
    assert parse("invoque M1; effet M2") == (Summon(card="c1", line="front"), PlayEffect(card="c2"))


@pytest.mark.parametrize(
    ("text", "reason", "step", "token"),
    [
        ("", "empty", 0, ""),
        (" ; ", "empty", 0, ""),
        ("invoque M1; pose M2", "keyword", 2, "pose"),
        ("invoque", "missing_card", 1, "invoque"),
        ("déplace F1", "line", 1, "F1"),
        ("déplace F1 milieu", "line", 1, "milieu"),
        ("attaque F1", "missing_target", 1, "attaque F1"),
        ("attaque F1 >", "missing_target", 1, "attaque F1 >"),
        ("attaque > AF1", "missing_card", 1, "attaque > AF1"),
        ("déplace F1 front -> AF1", "no_targets_here", 1, "déplace F1 front -> AF1"),
        ("invoque Mère", "ambiguous", 1, "Mère"),
        ("invoque Ag", "too_short", 1, "Ag"),
        ("invoque Zorglub", "unknown_card", 1, "Zorglub"),
        ("attaque F1 > AF3", "no_such_target", 1, "AF3"),
        ("attaque F1 > Gervaise Chaudron", "no_such_target", 1, "Gervaise Chaudron"),
        ("effet M2 -> AR4", "no_such_target", 1, "AR4"),
        ("effet M2 -> ", "missing_target", 1, ""),
    ],
)
def test_syntax_errors(text: str, reason: str, step: int, token: str) -> None:
    with pytest.raises(NotationError) as caught:
        parse(text)
    error = caught.value
    assert isinstance(error, BadInput)
    assert not isinstance(error, UnownedCard)
    assert (error.reason, error.params) == (reason, {"step": step, "token": token})
    assert error.key == f"choco.notation.{reason}"
    for lang in ("fr", "en"):
        from core.i18n import t

        shown = t(error.key, lang, **error.params)
        assert "{" not in shown
        assert step == 0 or str(step) in shown


@pytest.mark.parametrize(
    ("text", "token"),
    [
        ("invoque M7", "M7"),
        ("invoque M1; effet M9", "M9"),
        ("déplace F3 réserve", "F3"),
        ("déplace R2 front", "R2"),
        ("invoque Gervaise Chaudron", "Gervaise Chaudron"),  # the opponent's card
        ("défausse Barnabé", "Barnabé"),  # in the pioche
        ("invoque Joséphine Grelotte", "Joséphine Grelotte"),  # in the graveyard
        ("attaque AF1 > AF2", "AF1"),  # attacking with an opponent's card
    ],
)
def test_a_card_the_player_does_not_hold(text: str, token: str) -> None:
    with pytest.raises(UnownedCard) as caught:
        parse(text)
    assert isinstance(caught.value, BadInput)
    assert not isinstance(caught.value, NotationError)
    assert caught.value.key == "choco.notation.unowned"
    assert caught.value.params["token"] == token


def test_describe_and_to_text() -> None:
    steps = parse(
        "invoque M6 réserve -> F2; effet M2 -> AF1; déplace F1 réserve; attaque F2 > AF2; défausse M3"
    )
    assert to_text(steps, table(), 0) == (
        "invoque M6 réserve -> F2; effet M2 -> AF1; déplace F1 réserve; attaque F2 > AF2; défausse M3"
    )
    assert to_text(steps, table(), 0, "en") == (
        "summon M6 reserve -> F2; effect M2 -> AF1; move F1 reserve; attack F2 > AF2; discard M3"
    )
    assert to_text((DeckAttack(attacker="c7"),), table(), 0) == "attaque F1 > pioche"
    assert [render(t, "fr") for t in describe(steps, table(), 0, catalog())] == [
        "Invoquer Bertille Écume en ligne de réserve, cibles\u00a0: Dorothée Balai",
        "Jouer l'effet Éclair de poche, cibles\u00a0: Honorine Brindille",
        "Déplacer Capucine Cendrée en ligne de réserve",
        "Dorothée Balai attaque Ignace Fiole",
        "Défausser Mère Demdike",
    ]
    assert render(describe((DeckAttack(attacker="c7"),), table(), 0, catalog())[0], "en") == (
        "Capucine Ashgrey attacks the opponent's deck"
    )


def test_round_trip_over_random_legal_turns() -> None:
    """Play real games with `legal_actions`; every turn whose cards all show at its start (no card drawn
    mid-turn) is written with to_text and parsed back to the same steps, in both languages."""
    checked = 0
    for seed in range(40):
        rng = random.Random(seed)
        state = new_game(seed, max_turns=12)
        start, steps = state, list[Step]()
        while ENGINE.current_players(state):
            seat = rng.choice(ENGINE.current_players(state))
            action = rng.choice(ENGINE.legal_actions(state, seat))
            if not steps and not isinstance(action, Prepare):
                start = state
            state, _ = ENGINE.apply(state, seat, action)
            if isinstance(action, Prepare):
                continue
            if not isinstance(action, EndTurn):
                assert not isinstance(action, Turn)  # legal_actions lists single steps
                steps.append(action)
                continue
            try:
                fr = to_text(steps, start, seat)
            except ValueError:
                steps = []
                continue
            assert parse_turn(fr, start, seat, catalog()) == tuple(steps) if steps else True
            if steps:
                assert parse_turn(to_text(steps, start, seat, "en"), start, seat, catalog()) == tuple(steps)
            checked += len(steps)
            steps = []
    assert checked >= 200
