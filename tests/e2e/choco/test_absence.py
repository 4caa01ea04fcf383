"""`/choco absence` as players use it: in a game's thread for that game; elsewhere for every live game of
the player, each within its own allowance (a spent allowance refuses that game only)."""

from __future__ import annotations

from sandbox.harness import BotHarness
from tests.e2e.choco.helpers import challenge_accepted, with_bronze_deck
from tests.e2e.messages import shown
from tests.fixtures import postgres


async def absences(h: BotHarness, game_id: int) -> list[tuple[int, int]]:
    assert h.bot is not None
    rows = await h.bot.services.db.read(
        lambda conn: conn.execute(
            "SELECT player_id, hours FROM choco_absences WHERE match_id ="
            " (SELECT id FROM matches WHERE game = 'choco' AND number = ?) ORDER BY id",
            (game_id,),
        ).fetchall()
    )
    return [(int(r[0]), int(r[1])) for r in rows]


def notices(h: BotHarness, thread_id: int | None) -> list[str]:
    thread = h.emu.world.channels[thread_id or 0]
    return [shown(m) for m in h.emu.channel_messages(thread) if "est absent jusqu'au" in shown(m)]


async def test_outside_a_thread_the_absence_covers_every_game(harness: BotHarness) -> None:
    alice, bob, carol = harness.user("alice"), harness.user("bob"), harness.user("carol")
    for user in (alice, bob, carol):
        await with_bronze_deck(harness, user)
    first = await challenge_accepted(harness, alice, bob)
    second = await challenge_accepted(harness, alice, carol)
    assert first.id != second.id

    # in a thread: that game only
    thread = harness.emu.world.channels[first.thread_id or 0]
    reply = await harness.emu.run_command(
        alice, "choco absence", {"durée": "2j", "raison": "déménagement"}, channel=thread
    )
    assert reply.message is not None
    assert reply.message.ephemeral
    assert f"Partie n° {first.id}" in shown(reply.message)
    assert f"Partie n° {second.id}" not in shown(reply.message)
    await harness.settle()
    assert await absences(harness, first.id) == [(alice.id, 48)]
    assert await absences(harness, second.id) == []
    assert len(notices(harness, first.thread_id)) == 1

    # elsewhere: both games; the first has 168 - 48 = 120 h left, so 6 days are refused there only
    reply = await harness.emu.run_command(
        alice, "choco absence", {"durée": "6j", "raison": "vacances"}, channel=harness.games_channel
    )
    assert reply.message is not None
    assert reply.message.ephemeral
    text = shown(reply.message)
    assert f"Partie n° {second.id}" in text
    assert "il vous reste 24 h" in text
    assert f"Partie n° {first.id}" in text
    assert "absence refusée" in text
    assert "120 h" in text
    await harness.settle()
    assert await absences(harness, first.id) == [(alice.id, 48)]
    assert await absences(harness, second.id) == [(alice.id, 144)]
    assert len(notices(harness, second.thread_id)) == 1
    assert len(notices(harness, first.thread_id)) == 1


async def test_an_absence_without_a_game_is_refused(harness: BotHarness) -> None:
    alice = harness.user("alice")
    reply = await harness.emu.run_command(alice, "choco absence", {"durée": "1j", "raison": "voyage"})
    assert reply.message is not None
    assert "aucune partie de Chocobataille en cours" in shown(reply.message)
    bad = await harness.emu.run_command(alice, "choco absence", {"durée": "demain", "raison": "voyage"})
    assert bad.message is not None
    assert "Durée illisible" in shown(bad.message)
    assert h_rows(harness) == 0


def h_rows(h: BotHarness) -> int:
    assert h.bot is not None
    with postgres.connect(h.bot.settings.database_path) as conn:
        return int(conn.execute("SELECT COUNT(*) FROM choco_absences").fetchone()[0])
