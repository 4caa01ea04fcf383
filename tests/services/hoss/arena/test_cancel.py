"""« Pour quitter l'Arène après une modification, tu enregistres tes deux decks complets ou tu annules les
changements »: cancelling puts the registered decks back into the slots they came from; the Arena's own
decks never moved."""

from __future__ import annotations

import pytest

from services.hoss.arena.seasons import NotRegistered
from services.infra.games import GameRegistry
from store.connection import Connection
from tests.services.hoss.arena import BUFFS_A, BUFFS_B, DECK_A, DECK_B, GUILD, OTHER, World


async def arena_decks(world: World, player: int) -> tuple[str, str]:
    def unit(conn: Connection) -> tuple[str, str]:
        row = conn.execute(
            "SELECT deck_a, deck_b FROM hoss_arena_entries WHERE player_id = ?", (player,)
        ).fetchone()
        return str(row[0]), str(row[1])

    return await world.db.read(unit)


async def test_cancelling_puts_both_registered_decks_back_in_their_slots(
    world: World, registry: GameRegistry
) -> None:
    await world.enroll(registry, 1)
    before = await arena_decks(world, 1)
    await world.decks.save(1, 1, "Essai", DECK_B, BUFFS_B)  # an edit of the attack slot
    await world.decks.delete(1, 2)  # and the defence slot gone

    assert await world.arena.cancel_changes(GUILD, 1) == (1, 2)

    attack, defence = await world.decks.show(1, 1), await world.decks.show(1, 2)
    assert [line.line for line in attack.lines] == DECK_A
    assert [buff.copy.card for buff in attack.buffs] == BUFFS_A
    assert attack.name == "Essai"  # the slot keeps the name the player gave it
    assert [line.line for line in defence.lines] == DECK_B
    assert [buff.copy.card for buff in defence.buffs] == BUFFS_B
    assert defence.name == "Deck 2"
    assert attack.valid
    assert defence.valid
    assert await arena_decks(world, 1) == before  # opponents face the same decks as before


async def test_only_a_registered_player_cancels_and_only_in_their_server(
    world: World, registry: GameRegistry
) -> None:
    await world.enroll(registry, 1)
    with pytest.raises(NotRegistered):
        await world.arena.cancel_changes(GUILD, 2)
    with pytest.raises(NotRegistered):
        await world.arena.cancel_changes(OTHER, 1)
