"""How a Dinocard battle reads: the end gives the winner's life first, each step of a phase is labelled
(« Une phase se décompose en trois temps : Tour du joueur 1 … Tour du joueur 2 … Combat »), the rail's
numbers are named, an enchantment of one's own dinoz reads as French, places count from 1, a copy held
by an open trade is refused as such, and the rules summary points to no file of the bot."""

from __future__ import annotations

import pytest

from core.i18n import t
from engine.dinocard import DinocardCatalog
from services.dinocard import DinocardServices
from services.dinocard.economy import GAME_KEY
from services.dinocard.render import battle
from services.dinocard.render.battle import _slot, event_text, side
from services.infra import ledger
from services.infra.games import GameRegistry
from services.infra.messages import Text, render_text
from services.shared.collecting import DeckInvalid
from services.shared.render.guide import rules_spec
from store.connection import Connection
from store.db import Database
from tests.services.dinocard.conftest import ALICE, element_pack, fire_pack
from tests.support.registries import every_game

WHO = (Text.raw("Braise"), Text.raw("Maître Moueffe"))


def said(kind: str, data: dict[str, object], catalog: DinocardCatalog, lang: str = "fr") -> str:
    cards = {c.id: c for c in catalog.cards}
    shown = event_text({"kind": kind, "data": data}, WHO, cards)
    assert shown is not None
    return render_text(shown, lang)


def test_the_end_gives_the_winners_life_first(catalog: DinocardCatalog) -> None:
    """« Vous gagnez le Défi si à la fin d'un tour, votre adversaire n'a plus de points de vie. »"""
    master = said("ended", {"winner": 1, "reason": "ko", "life": [0, 17]}, catalog)
    assert master == "🏁 Maître Moueffe gagne (PV à zéro) — 17 PV contre 0."
    pack = said("ended", {"winner": 0, "reason": "ko", "life": [8, 0]}, catalog)
    assert pack == "🏁 Braise gagne (PV à zéro) — 8 PV contre 0."
    assert said("ended", {"winner": 1, "reason": "ko", "life": [0, 17]}, catalog, "en").endswith(
        "17 life against 0."
    )


def test_each_step_of_a_phase_is_labelled(catalog: DinocardCatalog) -> None:
    assert said("turn", {"seat": 1, "phase": 3}, catalog) == "**Tour de Maître Moueffe**"
    assert said("turn", {"seat": 0, "phase": 3}, catalog) == "**Tour de Braise**"
    assert said("combat", {"phase": 3}, catalog) == "**Combat**"


def test_an_enchantment_and_the_places_read_as_french(catalog: DinocardCatalog) -> None:
    card = next(c.id for c in catalog.cards if c.type == "enchantement")
    own = said("enchant", {"seat": 0, "card": "a3", "card_id": card, "target_seat": 0, "slot": 0}, catalog)
    assert own.startswith("🔮 Braise enchante son dinoz en place 1 avec ")
    foe = said("enchant", {"seat": 0, "card": "a3", "card_id": card, "target_seat": 1, "slot": 2}, catalog)
    assert foe.startswith("🔮 Braise enchante le dinoz de Maître Moueffe en place 3 avec ")
    egg = said("egg", {"seat": 1, "slot": 2, "card": None}, catalog)
    assert egg == "🥚 Maître Moueffe pose un œuf en place 3."


def test_the_rails_numbers_are_named(catalog: DinocardCatalog) -> None:
    """A hatched dinoz shows its force and the endurance it has left; an egg its éclosion markers, but not
    how many it needs: that is its face-down card's (« sous la forme d'Oeuf (face cachée) »)."""
    cards = {c.id: c for c in catalog.cards}
    winks = next(c for c in catalog.cards if c.name.fr == "Winks")
    dinoz = {"hatched": True, "card_id": winks.id, "force": 2, "endurance": 3, "damage": 1}
    assert _slot(dinoz, cards, "fr") == "Winks F2/E2"
    assert _slot({"hatched": False, "markers": 1}, cards, "fr") == "🥚 1 marqueur"
    assert _slot({"hatched": False, "markers": 2}, cards, "en") == "🥚 2 markers"


def test_a_rails_place_is_written_once_per_language_and_content(
    catalog: DinocardCatalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A dinoz stays on its rail for most steps: each step's message wrote its place again in both
    languages (issue 39). A place changed (its endurance) is written anew."""
    cards = {c.id: c for c in catalog.cards}
    winks = next(c for c in catalog.cards if c.name.fr == "Winks")
    written: list[str] = []

    def counted(key: str, lang: str | None = None, /, **params: object) -> str:
        written.append(key)
        return t(key, lang, **params)

    monkeypatch.setattr(battle, "t", counted)
    place = {"hatched": True, "card_id": winks.id, "force": 41, "endurance": 43, "damage": 1}
    board = {
        "energy": [{}, {}],
        "rails": [[place, {"hatched": False, "markers": 37}, None], [None, None, None]],
        "objects": [[], []],
        "life": [20, 20],
        "pile": [10, 10],
        "graveyard": [0, 0],
    }
    first = render_text(side(board, 0, cards), "en")
    assert sorted(written) == ["dinocard.battle.rail_dinoz"] * 2 + ["dinocard.battle.rail_egg"] * 2
    written.clear()
    assert render_text(side(board, 0, cards), "en") == first
    assert written == []
    hurt = {**place, "damage": 2}
    assert _slot(hurt, cards, "fr") == "Winks F41/E41"
    assert written == ["dinocard.battle.rail_dinoz"]


async def test_a_copy_held_by_an_open_trade_is_refused_as_such(
    dino: DinocardServices, db: Database, catalog: DinocardCatalog
) -> None:
    """« Il vous faut au minimum 20 cartes qui ne sont ni dans un autre pack ni en cours d'échange. »"""
    await dino.collection.page(ALICE)  # the starter collection: two copies of every common
    water = element_pack(catalog, "eau")

    def offer_one(conn: Connection) -> None:
        (copy,) = conn.execute(
            "SELECT id FROM cards WHERE owner_id = ? AND game = ? AND card_key = ? ORDER BY id LIMIT 1",
            (ALICE, GAME_KEY, water[0]),
        ).fetchone()
        ledger.set_card_lock(conn, [int(copy)], ALICE, "trade:7")

    await db.write(offer_one)
    with pytest.raises(DeckInvalid) as refused:
        await dino.packs.create(ALICE, "Marée", water)
    (problem,) = refused.value.problems
    assert problem.key == "dinocard.pack.problem.copies_traded"
    assert (problem.params["count"], problem.params["free"], problem.params["traded"]) == (2, 1, 1)
    assert "hors packs" not in render_text(Text(problem.key, {**problem.params, "card": "x"}), "fr")
    await dino.packs.create(ALICE, "Braise", fire_pack(catalog))
    with pytest.raises(DeckInvalid) as too_many:  # the pack's copies are « hors packs »: no trade named
        await dino.packs.create(ALICE, "Braise 2", fire_pack(catalog))
    assert {p.key for p in too_many.value.problems} == {"dinocard.pack.problem.copies_free"}


def test_the_rules_summary_points_to_no_file_of_the_bot(registry: GameRegistry) -> None:
    """`/dino règles`: every page, in both languages, with the footer every game's summary shares."""
    spec = every_game().get("dinocard")
    assert spec is not None
    assert spec.guide is not None
    for page in range(1, len(spec.guide.rules_pages) + 1):
        (embed,) = rules_spec(registry, "dinocard", page).embeds
        for lang in ("fr", "en"):
            shown = render_text(embed.description, lang)
            assert f"Page {page}/4" in shown
            assert "docs/" not in shown
            assert ".md" not in shown
            assert "`/" in shown.splitlines()[-1]  # the footer names a command instead
