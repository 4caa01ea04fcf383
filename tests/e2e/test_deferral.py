"""Paths that may wait answer Discord first: Discord drops an interaction whose first response comes more
than 3 s after it was created. Each test makes the slow step of a path cost 5 s on the bot's clock (a
rate-limited thread creation, or a service call that moves the clock while it runs); the emulator, on the
same clock, refuses a late first response, so these fail on a path that does the work before deferring."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from datetime import timedelta
from typing import Any

import pytest

from sandbox.harness import BotHarness
from tests.e2e.choco.helpers import challenge_accepted, with_bronze_deck
from tests.e2e.hoss.helpers import LINES, give, gold, hoss, text
from tests.e2e.messages import shown
from tests.e2e.pillz.helpers import duel_message, first_unused, pillz

SLOW = timedelta(seconds=5)


def slowed(h: BotHarness, monkeypatch: pytest.MonkeyPatch, owner: object, name: str) -> None:
    """`owner.name` moves the bot's clock by `SLOW` while it runs, as a long computation would."""
    original: Callable[..., Awaitable[Any]] = getattr(owner, name)

    async def slow(*args: Any, **kwargs: Any) -> Any:
        h.clock.advance(SLOW)
        return await original(*args, **kwargs)

    monkeypatch.setattr(owner, name, slow)


async def test_accepting_a_challenge_survives_a_rate_limited_thread_creation(harness: BotHarness) -> None:
    alice, bob = harness.user("alice"), harness.user("bob")
    await with_bronze_deck(harness, alice)
    await with_bronze_deck(harness, bob)
    limit = harness.emu.rate_limit(
        r"/channels/\d+/threads", method="POST", on_limit=lambda: harness.clock.advance(SLOW)
    )

    game = await challenge_accepted(harness, alice, bob)

    assert limit.remaining == 0  # the thread creation met the 429
    assert game.thread_id is not None
    assert harness.emu.world.channels[game.thread_id].is_thread
    accepted = [m for m in harness.emu.messages if "a accepté" in m.content]
    assert len(accepted) == 1
    assert f"<#{game.thread_id}>" in accepted[0].content


async def test_a_slow_bulk_sale_defers_its_quote_and_its_confirmation(
    harness: BotHarness, monkeypatch: pytest.MonkeyPatch
) -> None:
    alice = harness.user("alice")
    for line in LINES:
        await give(harness, alice, f"{line}_1")
    for _ in range(2):
        await give(harness, alice, "orc_mage_1")
    sale = hoss(harness).sale
    slowed(harness, monkeypatch, sale, "quote_matching")
    slowed(harness, monkeypatch, sale, "sell_quoted")

    quoted = await harness.emu.run_command(alice, "hoss vendre doublons")

    assert "Devis\u00a0: 2 cartes" in text(quoted)
    assert quoted.ephemeral
    sold = await harness.emu.click(alice, "Confirmer la vente")
    assert "Vente confirmée\u00a0: 2 cartes" in text(sold)
    assert sold.message is quoted.message
    assert sold.message is not None
    assert sold.message.button_labels == []
    assert await gold(harness, alice) == 304


async def test_a_practice_move_defers_before_the_ai_answers(
    harness: BotHarness, monkeypatch: pytest.MonkeyPatch
) -> None:
    alice = harness.user("alice")
    await harness.emu.run_command(alice, "pillz entraînement")
    await harness.settle()
    (duel,) = await pillz(harness).duels.live(alice.id)
    controls = await harness.emu.click(alice, "Jouer", message=duel_message(harness, duel.id))
    assert controls.message is not None
    place = await first_unused(harness, duel.id, 0)
    picked = await harness.emu.select(alice, values=[str(place)], message=controls.message)
    slowed(harness, monkeypatch, pillz(harness).duels, "play_place")

    played = await harness.emu.click(alice, "Jouer (0 pillz)", message=picked.message)

    assert played.message is not None
    assert played.message is picked.message
    assert "Joué\u00a0:" in shown(played.message)
    await harness.settle()
    after = await pillz(harness).duels.get(duel.id)
    assert after.version > duel.version


async def test_a_long_rate_limit_on_the_thread_leaves_the_game_in_the_channel(harness: BotHarness) -> None:
    """A wait over the bot's `MAX_RATELIMIT_WAIT` makes discord.py raise `RateLimited` (not an
    `HTTPException`) at once: the game is played where the challenge was made, as when threads are refused."""
    alice, bob = harness.user("alice"), harness.user("bob")
    await with_bronze_deck(harness, alice)
    await with_bronze_deck(harness, bob)
    harness.emu.rate_limit(r"/channels/\d+/threads", method="POST", times=None, retry_after=60)

    game = await challenge_accepted(harness, alice, bob)

    assert game.thread_id is None
    assert harness.emu.threads == []
    accepted = [m for m in harness.emu.messages if "a accepté" in m.content]
    assert len(accepted) == 1
    assert f"<#{game.channel_id}>" in accepted[0].content
