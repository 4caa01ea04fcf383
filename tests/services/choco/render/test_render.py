"""The referee's posts: the board in the rules' layout (II), the active effects, the private hand message,
the result; and over many real games, no hidden card's name ever reaches a public post."""

from __future__ import annotations

import pytest

from engine.choco.effects import placed
from engine.choco.state import Active, Card, ChocoState, Side, Timed, TurnProgress
from engine.protocol import Event, Outcome
from engine.rng import RngState
from services.choco.render.board import OUTCOME_KEYS, active_effects, board, hand, narrate, outcome
from tests.services.choco.render.games import NAMES, catalog, new_game, play, render


def wizard(uid: str, card_id: str, pv: int | None = None) -> Card:
    card = catalog().card(card_id)
    assert card is not None
    assert card.pa is not None
    assert card.pv is not None
    return Card(
        uid=uid,
        card_id=card_id,
        pa=card.pa,
        pv=pv or card.pv,
        max_pv=card.pv,
        base_pa=card.pa,
        base_pv=card.pv,
    )


def pure(uid: str, card_id: str) -> Card:
    return Card(uid=uid, card_id=card_id, pa=0, pv=0, max_pv=0, pure=True)


def stats(card_id: str, pv: int | None = None) -> str:
    card = wizard("x", card_id, pv)
    return f"{card.pa} PA / {card.pv} PV" if pv is None else f"{card.pa} PA / {pv}/{card.max_pv} PV"


def name(card_id: str, lang: str = "fr") -> str:
    card = catalog().card(card_id)
    assert card is not None
    return card.name.get(lang)


def mid_game() -> ChocoState:
    """Seat 0 (Alice): a wounded front wizard and a reserve; seat 1 (Bob): two front wizards."""
    effects = {
        c.id: c.effect
        for c in catalog().cards
        if c.effect is not None and c.id in {"eclair_de_poche", "mere_holle"}
    }
    me = Side(
        pioche=(wizard("c5", "barnabe_crapaud"),) * 1 + (pure("c6", "eclair_de_poche"),),
        hand=(wizard("c1", "aglae_pommeverte"), pure("c2", "eclair_de_poche")),
        front=(wizard("c3", "capucine_cendree", pv=2), wizard("c9", "mere_holle")),
        reserve=(wizard("c4", "dorothee_balai"),),
        graveyard=(wizard("c7", "eudes_lentille"),),
    )
    them = Side(
        pioche=(wizard("c30", "fulbert_cornemuse"),),
        hand=(wizard("c31", "gervaise_chaudron"),),
        front=(wizard("c32", "honorine_brindille"), wizard("c33", "ignace_fiole")),
    )
    return ChocoState(
        sides=(me, them),
        player_ids=(1, 2),
        rng=RngState(seed=1),
        turn=5,
        active=0,
        progress=TurnProgress(),
        effects=effects,
        actives=(Active(owner=0, uid="c9", card_id="mere_holle", left=2, turn=3),),
        timed=(
            Timed(owner=1, uid="c3", kind="stun", left=1, turn=4),
            Timed(owner=0, uid="c32", kind="modify", left=2, turn=5, pa=-1),
        ),
    )


def test_board_follows_the_rules_layout_with_counts() -> None:
    out = render(board(mid_game(), catalog(), NAMES), "fr").splitlines()
    assert out == [
        "**Terrain d'Alice**",
        "❑ pioche\u00a0: 2",
        "🃏 main\u00a0: ⎔⎔ (2)",
        "☠ cimetière\u00a0: 1",
        "Ligne de réserve",
        f"R1 {name('dorothee_balai')} {stats('dorothee_balai')}",
        "Ligne de front",
        f"F1 {name('capucine_cendree')} {stats('capucine_cendree', 2)}",
        f"F2 {name('mere_holle')} {stats('mere_holle')}",
        "_______________________",
        "Ligne de front",
        f"F1 {name('honorine_brindille')} {stats('honorine_brindille')}",
        f"F2 {name('ignace_fiole')} {stats('ignace_fiole')}",
        "Ligne de réserve",
        "(vide)",
        "☠ cimetière\u00a0: 0",
        "🃏 main\u00a0: ⎔ (1)",
        "❑ pioche\u00a0: 1",
        "**Terrain de Bob**",
    ]


def test_board_in_english_and_never_a_hand_or_pioche_card() -> None:
    state = mid_game()
    out = render(board(state, catalog(), NAMES), "en")
    assert out.startswith("**Alice's field**\n❑ deck: 2\n")
    assert (
        f"F1 {name('capucine_cendree', 'en')} "
        + stats("capucine_cendree", 2).replace("PA", "AP").replace("PV", "HP")
        in out
    )
    for card_id in (
        "aglae_pommeverte",
        "eclair_de_poche",
        "barnabe_crapaud",
        "fulbert_cornemuse",
        "gervaise_chaudron",
    ):
        assert name(card_id, "en") not in out
        assert name(card_id, "fr") not in out


def test_preparatory_placements_stay_face_down() -> None:
    for played in play(3):
        state = played.after
        if state.turn == 0 and any(s.board() for s in state.sides):
            for lang in ("fr", "en"):
                out = render(board(state, catalog(), NAMES), lang)
                for side in state.sides:
                    for card in side.board() + side.hand:
                        assert name(card.card_id, lang) not in out
            assert "carte cachée" in render(board(state, catalog(), NAMES), "fr")
            assert "hidden card" in render(board(state, catalog(), NAMES), "en")
            mine = render(hand(state, 0, catalog()), "fr")
            # Alice sees her own placement, not Bob's.
            for card in state.sides[0].board():
                assert name(card.card_id) in mine
            for card in state.sides[1].board():
                assert name(card.card_id) not in mine
        if state.turn > 0:
            return
    pytest.fail("the game never reached turn 1")


def test_active_effects_list_actives_and_timed_per_player() -> None:
    state = mid_game()
    out = render(active_effects(state, catalog(), NAMES), "fr").splitlines()
    holle = catalog().card("mere_holle")
    assert holle is not None
    assert holle.effect is not None
    assert out == [
        "**Alice**",
        "Effets actifs",
        f"{holle.effect.name.fr} ({name('mere_holle')})",
        f"⇝ {holle.effect.text.fr} (tours restants\u00a0: 2)",
        f"Modification ({name('honorine_brindille')})",
        "⇝ -1 PA / 0 PV (tours restants\u00a0: 2)",
        "**Bob**",
        "Effets actifs",
        f"Étourdissement ({name('capucine_cendree')})",
        "⇝ ne peut pas attaquer (tours restants\u00a0: 1)",
    ]
    empty = state.model_copy(update={"actives": (), "timed": ()})
    assert render(active_effects(empty, catalog(), NAMES), "en").splitlines() == [
        "**Alice**",
        "Active effects",
        "None",
        "**Bob**",
        "Active effects",
        "None",
    ]


def test_a_timed_step_is_named_by_its_effect_and_the_wizard() -> None:
    """« Voile de brume (Delphine Brume) », as the rulebook's « Nom de l'effet (Nom du sorcier) »: the
    effect's own name, not its mechanic ("Protection")."""
    delphine = wizard("c40", "delphine_brume")
    base = mid_game()
    me = base.sides[0].model_copy(update={"front": (*base.sides[0].front, delphine)})
    card = catalog().card("delphine_brume")
    assert card is not None
    assert card.effect is not None
    state = base.model_copy(
        update={"sides": (me, base.sides[1]), "effects": {**base.effects, "delphine_brume": card.effect}}
    )
    state, _ = placed(state, 0, delphine)
    out = render(active_effects(state, catalog(), NAMES), "fr").splitlines()
    assert "Voile de brume (Delphine Brume)" in out
    assert (
        out[out.index("Voile de brume (Delphine Brume)") + 1]
        == "⇝ ne peut pas être attaqué (tours restants\u00a0: 1)"
    )
    english = render(active_effects(state, catalog(), NAMES), "en").splitlines()
    assert "Veil of Mist (Delphine Haze)" in english
    assert not any(line.startswith("Protection") for line in out)


def test_hand_lists_the_private_cards_with_labels() -> None:
    state = mid_game()
    out = render(hand(state, 0, catalog()), "fr")
    eclair = catalog().card("eclair_de_poche")
    assert eclair is not None
    assert eclair.effect is not None
    assert f"M1 {name('aglae_pommeverte')} — Sorcier — {stats('aglae_pommeverte')}" in out
    assert f"M2 {name('eclair_de_poche')} — Effet pur" in out
    assert f"⇝ {eclair.effect.name.fr}\u00a0: {eclair.effect.text.fr}" in out
    assert f"F1 {name('capucine_cendree')}" in out
    assert f"R1 {name('dorothee_balai')}" in out
    assert f"AF1 {name('honorine_brindille')}" in out
    assert f"AF2 {name('ignace_fiole')}" in out
    assert "❑ pioche\u00a0: 2" in out
    # Never the opponent's hand, never a pioche card.
    for card_id in ("gervaise_chaudron", "fulbert_cornemuse", "barnabe_crapaud"):
        assert name(card_id) not in out
    theirs = render(hand(state, 1, catalog()), "en")
    assert f"M1 {name('gervaise_chaudron', 'en')}" in theirs
    assert name("aglae_pommeverte", "en") not in theirs
    assert f"AF1 {name('capucine_cendree', 'en')}" in theirs


@pytest.mark.parametrize("why", sorted(OUTCOME_KEYS))
def test_every_outcome_reason_has_a_message(why: str) -> None:
    draw = why in ("both_out", "turn_limit")
    result = Outcome(draw=draw, winners=() if draw else (1,), scores=(0, 3), reason=f"choco.outcome.{why}")
    for lang in ("fr", "en"):
        out = render(outcome(result, NAMES), lang)
        assert "choco." not in out
        assert "{" not in out
        if not draw:
            assert "Bob" in out
            assert "Alice" in out
    assert render(outcome(None, NAMES), "fr") == "La partie continue."


def test_outcomes_of_real_games_render() -> None:
    for seed in range(5):
        *_, last = play(seed)
        from engine.choco.engine import ChocoEngine

        result = ChocoEngine().outcome(last.after)
        assert result is not None
        assert "choco." not in render(outcome(result, NAMES), "fr")


def _names_of(card_ids: set[str]) -> set[str]:
    out = set()
    for card_id in card_ids:
        card = catalog().card(card_id)
        assert card is not None
        out |= {card.name.fr, card.name.en}
    return out


def _public_ids(played_states: tuple[ChocoState, ...], events: list[Event]) -> set[str]:
    ids: set[str] = set()
    by_uid = {}
    for state in played_states:
        for side in state.sides:
            for card in side.hand + side.pioche + side.board() + side.graveyard:
                by_uid[card.uid] = card.card_id
            ids |= {c.card_id for c in side.graveyard}
            if state.turn > 0:
                ids |= {c.card_id for c in side.board()}
        ids |= {a.card_id for a in state.actives}
    for event in events:
        if event.visible_to is not None:
            continue
        data = event.data
        for field in ("card", "attacker", "target"):
            if isinstance(data.get(field), str) and data[field] in by_uid:
                ids.add(by_uid[data[field]])
        ids |= {by_uid[u] for u in data.get("targets", []) if u in by_uid}
        if "card_id" in data:
            ids.add(data["card_id"])
        ids |= set(data.get("card_ids", []))
        ids |= {c["card_id"] for c in data.get("cards", []) if isinstance(c, dict)}
    return ids


@pytest.mark.slow
def test_no_hidden_card_name_in_public_posts_over_many_games() -> None:
    """50 seeded games (some longer, some with penalties): board, active effects and narration, in French
    and English, never name a card that is only in a hand or a pioche."""
    told_kinds: set[str] = set()
    checked = 0
    for seed in range(50):
        for played in play(
            seed, penalty_rate=0.03 if seed % 2 else 0.0, max_turns=30 if seed % 5 == 0 else None
        ):
            before, after = played.before, played.after
            hidden: set[str] = set()
            for state in (before, after):
                for side in state.sides:
                    hidden |= {c.card_id for c in side.hand + side.pioche}
                    if state.turn == 0:
                        hidden |= {c.card_id for c in side.board()}
            forbidden = _names_of(hidden - _public_ids((before, after), played.events))
            on_board = set() if after.turn == 0 else {c.card_id for s in after.sides for c in s.board()}
            board_forbidden = _names_of(hidden - on_board)
            told = narrate(played.events, before, after, catalog(), NAMES)
            told_kinds |= {e.kind for e in played.events if e.visible_to is None}
            for lang in ("fr", "en"):
                story = "\n".join(render(t, lang) for t in told)
                shown = render(board(after, catalog(), NAMES), lang)
                effects = render(active_effects(after, catalog(), NAMES), lang)
                for text in (story, shown, effects):
                    assert "choco." not in text
                    assert "{" not in text
                leaked = [n for n in forbidden if n in story or n in effects]
                assert leaked == [], (seed, lang, leaked, story)
                assert [n for n in board_forbidden if n in shown] == [], (seed, lang, shown)
            checked += 1
    assert checked > 2000
    assert {"attacked", "summoned", "effect", "effect_step", "turn_passed", "penalty_destroyed"} <= told_kinds


def test_new_game_renders_before_any_placement() -> None:
    state = new_game(7)
    out = render(board(state, catalog(), NAMES), "fr")
    assert out.count("(vide)") == 4
    assert "🃏 main\u00a0: ⎔⎔⎔⎔⎔ (5)" in out
