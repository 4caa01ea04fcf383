"""What a player reads of the leaders that act on lost rounds (Trésor de guerre, Bénédiction): their text in
the line-up, and a line under the round naming the leader behind each pillz or damage change (issue 11:
every number adds up). Also: a duel stored by the previous version, whose leader raised the start, still
loads, shows and plays."""

from __future__ import annotations

import json
from dataclasses import replace

from engine.pillz.catalog import PillzCatalog
from engine.pillz.state import Play
from services.pillz.duels import PillzDuels
from services.pillz.render import duel as render
from store.connection import Connection
from store.db import Database
from tests.engine.pillz.helpers import ENGINE
from tests.services.pillz.duels.helpers import card, friend, player_to_act, shown

ROXANE = "corsaires-admiral-roxane-porthole"  # Trésor de guerre 2
YSOLDE = "moines-abbess-ysolde"  # Bénédiction 3


async def test_a_lost_round_names_the_leaders_behind_its_pillz_and_damage(
    duels: PillzDuels, catalog: PillzCatalog
) -> None:
    duel = await friend(duels)
    assert duel.state is not None
    hands = ((card(catalog, ROXANE), card(catalog, YSOLDE), *duel.state.hands[0][2:]), duel.state.hands[1])
    state = duel.state.model_copy(update={"hands": hands, "first": 0})
    foe = state.hands[1][0]
    s, _ = ENGINE.apply(state, 0, Play(card=hands[0][2].card_id, pillz=0))
    s, _ = ENGINE.apply(s, 1, Play(card=foe.card_id, pillz=1))
    record = s.history[-1]
    assert record.winner == 1
    taken = max(0, foe.damage - 3)
    assert s.life[0] == 12 - taken
    assert s.pillz[0] == 12 + 2
    message = shown(render.public(replace(duel, state=s), catalog))
    assert "Trésor de guerre d'Amirale Roxane Sabord\u00a0: <@11> récupère 2 pillz" in message
    assert f"Bénédiction d'Abbesse Ysolde\u00a0: {foe.damage - taken} dégâts de moins pour <@11>" in message
    assert f"perd {taken} PV" in message
    assert "Trésor de guerre\u00a0: à chaque manche perdue, vous récupérez 2 pillz" in message
    assert "Bénédiction\u00a0: à la première manche perdue, vous subissez 3 dégâts de moins" in message
    english = shown(render.public(replace(duel, state=s), catalog), "en")
    assert "War Chest of Admiral Roxane Porthole: <@11> gets 2 pillz back" in english
    assert "War Chest: each time you lose a round, you get 2 pillz back" in english


async def test_a_duel_stored_by_the_previous_version_still_loads_shows_and_plays(
    duels: PillzDuels, catalog: PillzCatalog, db: Database
) -> None:
    """The previous version started a drawn Bénédiction's owner at 15 PV (`max_life` 15) and named the
    leader `extra_life`: such a duel keeps its numbers, shows the leader without a stale text, and plays on."""
    duel = await friend(duels)
    assert duel.state is not None
    raw = json.loads(ENGINE.to_json(duel.state))
    raw["hands"][0][0].update(card_id=YSOLDE, ability="extra_life", value=3)
    raw["life"][0] = raw["max_life"][0] = 15

    def store(conn: Connection) -> None:
        conn.execute("UPDATE matches SET state = ? WHERE id = ?", (json.dumps(raw), duel.id))

    await db.write(store)
    old = await duels.get(duel.id)
    assert old.state is not None
    assert old.state.life[0] == old.state.max_life[0] == 15
    message = shown(render.public(old, catalog))
    f = old.state.hands[0][0]
    assert f"Abbesse Ysolde {'★' * f.stars} — P {f.power} / D {f.damage}\n" in message + "\n"
    assert "extra_life" not in message
    assert "Bénédiction" not in message
    player = player_to_act(old)
    seat = old.seat_of(player)
    move = next(f.card_id for f in old.state.hands[seat] if not f.used)
    after = await duels.play(old.id, player, old.version, move, 1, guild=5)
    assert after.version > old.version
