"""A game's welcome comes before the answer to the player's first command of that game (issue 35), never
after the step it recommends: at the top of a private answer (or refusal), in the same message; as the
private response a public answer follows; at the top of the answer that replaces a private "thinking…".
Then, once recorded, no later command shows it."""

from __future__ import annotations

from sandbox.harness import BotHarness
from tests.e2e.choco.helpers import with_bronze_deck
from tests.e2e.messages import shown

PILLZ = "**Bienvenue dans Pillz duel\u202f!**"


async def test_a_private_answer_opens_with_the_welcome(harness: BotHarness) -> None:
    alice = harness.user("alice")
    first = await harness.emu.run_command(alice, "pillz collection")
    assert len(first.messages) == 1  # one message: no extra request before the answer
    assert first.message is not None
    assert first.message.ephemeral
    text = str(first.message.render())
    assert text.startswith(PILLZ)
    assert text.index("Prochaine étape") < text.index("Votre collection")  # then what she asked for
    again = await harness.emu.run_command(alice, "pillz collection")
    assert again.message is not None
    assert PILLZ not in str(again.message.render())


async def test_a_public_answer_follows_the_private_welcome(harness: BotHarness) -> None:
    bob = harness.user("bob")
    first = await harness.emu.run_command(bob, "hoss classement")
    await harness.settle()
    welcome, board = first.messages
    assert welcome.ephemeral_to == bob
    assert str(welcome.render()).startswith("**Bienvenue dans HOSS TCG")
    assert not board.ephemeral
    assert "Personne n'a encore fini de combat classé" in shown(board)
    assert welcome.id < board.id  # created first: the channel shows it first


async def test_the_answer_that_replaces_thinking_opens_with_the_welcome(harness: BotHarness) -> None:
    """`/choco entraînement` defers while it opens the game's thread: the answer replacing its "thinking…"
    carries the welcome at its top."""
    carol = harness.user("carol")
    await with_bronze_deck(harness, carol)
    first = await harness.emu.run_command(carol, "choco entraînement")
    await harness.settle()
    assert first.callback_type == 5  # deferred
    (answer,) = [m for m in first.messages if m.ephemeral]
    text = shown(answer)
    assert text.startswith("**Bienvenue dans la Chocobataille !**")
    assert text.index("Prochaine étape") < text.index("entraînement n°")


async def test_a_refusal_opens_with_the_welcome_and_records_nothing(harness: BotHarness) -> None:
    dave = harness.user("dave")
    refused = await harness.emu.run_command(dave, "pillz défi", {"joueur": harness.emu.world.bot})
    assert refused.message is not None
    text = str(refused.message.render())
    assert text.startswith(PILLZ)
    assert harness.bot is not None
    key = f"welcome:pillz:{dave.id}"
    sql = "SELECT COUNT(*) FROM idempotency WHERE key = ?"
    assert await harness.bot.services.db.read(lambda conn: conn.execute(sql, (key,)).fetchone()[0]) == 0
    later = await harness.emu.run_command(dave, "pillz collection")  # shown already: not again
    await harness.settle()  # the command's completion records it
    assert later.message is not None
    assert PILLZ not in str(later.message.render())
    assert await harness.bot.services.db.read(lambda conn: conn.execute(sql, (key,)).fetchone()[0]) == 1
