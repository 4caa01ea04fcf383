"""`/classement serveur` through Discord: public, pinging nobody, each game's places turned into points,
and how it is counted said under the board."""

from __future__ import annotations

from sandbox.harness import BotHarness
from services.infra.players import ensure_player
from services.pillz.ladder import record_friend_result
from store.connection import Connection


async def test_the_server_board_is_public_and_says_how_it_counts(harness: BotHarness) -> None:
    h = harness
    alice, bob = h.user("alice"), h.user("bob")
    empty = await h.emu.run_command(alice, "classement serveur")
    assert empty.message is not None
    assert "Personne n'est encore classé" in empty.message.render()
    assert h.bot is not None
    assert h.guild is not None
    services, guild = h.bot.services, h.guild.id
    now = services.clock.now()

    def unit(conn: Connection) -> None:
        for user in (alice, bob):
            ensure_player(conn, user.id, now, services.registry)
        record_friend_result(conn, now, services.registry, guild, 1, (alice.id, bob.id), 1)

    await services.db.write(unit)
    board = await h.emu.run_command(alice, "classement serveur")

    assert board.message is not None
    assert not board.message.ephemeral
    shown = board.message.render()
    assert f"**1.** <@{bob.id}> — 10 points (Pillz duel 1er)" in shown
    assert f"**2.** <@{alice.id}> — 9 points (Pillz duel 2e)" in shown
    assert "La 1re place d'un jeu rapporte 10 points" in shown
