"""Whole Chocobataille games played only through the guided panel's choices, picked at random: decks with
effect wizards and pure effects (so targeted effects are offered and chosen), every pick one the panel
offered, "Valider" whenever offered after a few picks. The games must end, every pick must be accepted,
and no error but the domain's may escape. (These seeds include a draft whose attacks win the game: the
panel must then offer "Valider", though the engine lists no next step in a finished state.)"""

from __future__ import annotations

import random
from zoneinfo import ZoneInfo

import pytest

from core.clock import ManualClock
from engine.choco.catalog import ChocoCatalog
from services.choco.decks import ChocoDecks
from services.choco.games import ChocoGames, Declared
from services.choco.panel import ChocoPanel, Panel
from services.infra.games import GameRegistry
from services.infra.scheduler import Scheduler
from store.db import Database
from tests.services.choco.conftest import GUILD, age, give, of_rarity

ALICE, BOB = 21, 22
GAMES = 6
MAX_TURNS = 120


@pytest.fixture
def games(db: Database, clock: ManualClock, catalog: ChocoCatalog, registry: GameRegistry) -> ChocoGames:
    return ChocoGames(
        db,
        clock,
        catalog,
        random.Random(11),
        Scheduler(db, clock, ZoneInfo("Europe/Paris")),
        registry=registry,
    )


async def mixed_decks(
    db: Database, clock: ManualClock, catalog: ChocoCatalog, decks: ChocoDecks, registry: GameRegistry
) -> None:
    """10 bronze wizards (normal and effect) and 2 bronze pure effects, twice each, for both players."""
    wizards = [c.id for c in of_rarity(catalog, "bronze_1", "bronze_2", wizards=True)]
    pures = [c.id for c in of_rarity(catalog, "bronze_1", "bronze_2", wizards=False)]
    effect_wizards = [c for c in wizards if catalog.card(c) and catalog.card(c).type == "effect"]  # type: ignore[union-attr]
    chosen = effect_wizards[:5] + [c for c in wizards if c not in effect_wizards][:5] + pures[:2]
    assert len(chosen) == 12
    for player in (ALICE, BOB):
        await give(db, clock, player, {c: 2 for c in chosen}, registry=registry)
        await age(db, player, clock, 60)
        await decks.save(player, "bronze", [c for c in chosen for _ in range(2)])


@pytest.mark.slow
async def test_random_games_through_the_panel_end(
    db: Database, clock: ManualClock, catalog: ChocoCatalog, games: ChocoGames, registry: GameRegistry
) -> None:
    decks = ChocoDecks(db, clock, catalog, registry=registry)
    panel = ChocoPanel(db, clock, catalog, games)
    await mixed_decks(db, clock, catalog, decks, registry=registry)
    rng = random.Random(5)
    targeted = 0
    for n in range(GAMES):
        made = await games.challenge(GUILD, 10, ALICE, BOB, "bronze", key=f"g{n}")
        answered = await games.answer(made.id, BOB, True)
        assert answered.game_id is not None
        game_id = answered.game_id
        await games.open_thread(game_id, None)
        for _ in range(MAX_TURNS * 4):
            game = await games.get(game_id)
            if game.status != "live":
                break
            player = game.player(game.to_act()[0])
            shown: Panel | Declared = await panel.show(game_id, player)
            picks = 0
            while isinstance(shown, Panel):
                options = [o for g in shown.groups for o in g.options]
                if shown.can_submit and (not options or picks >= 3 or rng.random() < 0.3):
                    shown = await panel.submit(game_id, player, shown.version)
                    break
                assert options, "the panel offers nothing and cannot submit"
                choice = rng.choice(options)
                targeted += choice.hint.count("⇢")
                shown = await panel.pick(game_id, player, shown.version, choice.value)
                picks += 1
            assert isinstance(shown, Declared), shown
            assert shown.status == "played", shown
        game = await games.get(game_id)
        assert game.status == "over", f"game {game_id} still live at turn {game.state.turn}"
    assert targeted > 0  # chosen targets were offered and picked
