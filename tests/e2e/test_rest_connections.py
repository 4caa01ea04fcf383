"""The bot's REST requests (those carrying its token: posts, threads, DMs, edits) go over its own
kept-alive connections (discord_app/rest_http.py), with discord.py's handling around each one."""

from __future__ import annotations

from discord_app.rest_http import RestSession
from emulator.global_limit import exempt
from sandbox.harness import BotHarness
from tests.e2e.choco.helpers import challenge_accepted, with_bronze_deck


async def test_a_challenge_sends_every_request_with_the_bot_token_over_the_bots_own_connections(
    harness: BotHarness,
) -> None:
    assert harness.bot is not None
    session = harness.bot.http._HTTPClient__session  # type: ignore[attr-defined]
    assert isinstance(session, RestSession)
    alice, bob = harness.user("alice"), harness.user("bob")
    await with_bronze_deck(harness, alice)
    await with_bronze_deck(harness, bob)
    sent, opened, seen = session.sent, session.http.opened, len(harness.emu.requests)

    await challenge_accepted(harness, alice, bob)

    new = harness.emu.requests[seen:]
    bot_token = [r for r in new if r.token is not None and not exempt(r.path)]
    assert len(bot_token) >= 3  # the thread, its posts
    assert session.sent - sent == len(bot_token)
    assert session.http.opened - opened <= 1  # kept alive: at most one more while requests overlap
    harness.emu.assert_no_errors()
