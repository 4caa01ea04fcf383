"""Chocobataille's hidden information and servers at the service level: a game seen from another server or
from a non-player's DMs does not exist; the referee's log of a live game is its public record (no seed, no
deck, no declared step, no private event, no pioche card a deck attack left in the pioche); a deck attack
names the card it destroys, not one that survives in the pioche."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

import pytest

from core.clock import ManualClock
from core.errors import NotFound
from engine.choco.catalog import ChocoCatalog
from engine.protocol import Event
from services.choco.game_store import LogEntry, insert, load_here
from services.choco.narrate import narrate
from services.choco.referee import log_entry
from services.infra.games import GameRegistry
from services.infra.players import ensure_player
from store.connection import Connection
from store.db import Database
from tests.services.choco.render.games import NAMES, new_game, render

ALICE, BOB, CARL = 11, 12, 13
HOME, OTHER = 555, 777


async def a_game(db: Database, now: datetime, registry: GameRegistry) -> int:
    state = new_game(5)

    def unit(conn: Connection) -> int:
        for player in (ALICE, BOB, CARL):
            ensure_player(conn, player, now, registry)
        decks = tuple([c.card_id for c in s.hand + s.pioche] for s in state.sides)
        return insert(
            conn,
            now,
            guild_id=HOME,
            channel_id=1,
            league="bronze",
            seats=(ALICE, BOB),
            seed=5,
            decks=(decks[0], decks[1]),
            state=state,
        )

    return await db.write(unit)


async def test_a_game_exists_only_in_its_server_and_for_its_players_in_dms(
    db: Database, clock: ManualClock, registry: GameRegistry
) -> None:
    game_id = await a_game(db, clock.now(), registry=registry)

    def where(guild: int | None, player: int | None) -> Callable[[Connection], object]:
        def unit(conn: Connection) -> object:
            try:
                return load_here(conn, game_id, guild, player).id
            except NotFound as error:
                return (error.key, dict(error.params))

        return unit

    missing = ("choco.error.no_game", {"id": game_id})
    assert await db.read(where(HOME, CARL)) == game_id  # a spectator of the server sees the game
    assert await db.read(where(None, ALICE)) == game_id  # a player, in their DMs
    assert await db.read(where(OTHER, ALICE)) == missing  # another server, even for a player
    assert await db.read(where(OTHER, None)) == missing  # a referee of another server
    assert await db.read(where(None, CARL)) == missing  # a non-player's DMs
    assert await db.read(where(None, None)) == missing


def test_the_live_log_is_the_public_record_and_the_full_one_waits_for_the_end() -> None:
    at = datetime(2026, 1, 5, 12)
    events = [
        {"kind": "drew", "data": {"seat": 0, "cards": ["c3"]}, "visible_to": [0]},
        {"kind": "drew_count", "data": {"seat": 0, "count": 1}, "visible_to": None},
        {
            "kind": "deck_attacked",
            "data": {"seat": 0, "card_id": "kept", "killed": False},
            "visible_to": None,
        },
        {"kind": "deck_attacked", "data": {"seat": 0, "card_id": "gone", "killed": True}, "visible_to": None},
    ]
    created = LogEntry(1, at, BOB, "created", {"challenge": 3, "seed": 99, "decks": [["a"], ["b"]]})
    turn = LogEntry(2, at, ALICE, "turn", {"steps": [{"kind": "summon", "card": "c4"}], "events": events})
    live = [log_entry(e, full=False) for e in (created, turn)]
    assert live[0]["data"] == {"challenge": 3}
    data = live[1]["data"]
    assert isinstance(data, dict)
    assert "steps" not in data
    assert [e["kind"] for e in data["events"]] == ["drew_count", "deck_attacked", "deck_attacked"]
    assert "card_id" not in data["events"][1]["data"]
    assert data["events"][2]["data"]["card_id"] == "gone"
    full = [log_entry(e, full=True) for e in (created, turn)]
    assert [f["data"] for f in full] == [created.data, turn.data]


@pytest.mark.parametrize("killed", [False, True])
def test_a_deck_attack_names_only_the_card_it_destroys(killed: bool, catalog: ChocoCatalog) -> None:
    state = new_game(5)
    hit = state.sides[1].pioche[0]
    attacker = state.sides[0].hand[0].uid
    data = {"seat": 0, "attacker": attacker, "card_id": hit.card_id, "damage": 3, "killed": killed}
    event = Event("deck_attacked", {**data, "sacrificed": False})
    card = catalog.card(hit.card_id)
    assert card is not None
    for lang, name, unnamed in (
        ("fr", card.name.fr, "une carte de sa pioche"),
        ("en", card.name.en, "a card"),
    ):
        [told] = [render(t, lang) for t in narrate([event], state, state, catalog, NAMES)]
        assert (name in told) is killed, told
        assert (unnamed in told) is not killed, told
