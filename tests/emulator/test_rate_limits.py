"""429 answers on chosen routes, shaped as Discord's "Rate Limits" page documents them, and how the real
discord.py client lives with them: it waits ``retry_after`` and sends again, up to 5 tries."""

from __future__ import annotations

import re

import aiohttp
import pytest

from emulator import DiscordEmulator
from emulator.global_limit import GlobalLimit
from tests.emulator.conftest import EmulatedBot

POSTS = r"/channels/\d+/messages"


def _statuses(emu: DiscordEmulator, method: str, pattern: str) -> list[int | None]:
    return [r.status for r in emu.requests if r.method == method and re.fullmatch(pattern, r.path)]


async def test_a_429_carries_the_documented_body_and_headers(emu: DiscordEmulator) -> None:
    channel = emu.channel("general")
    emu.rate_limit(POSTS, method="POST", retry_after=1.5)
    url = f"{emu.rest_base}/channels/{channel.id}/messages"

    async with aiohttp.ClientSession() as session:
        async with session.post(url, json={"content": "hi"}) as limited:
            body, headers, status = await limited.json(), limited.headers, limited.status
        async with session.post(url, json={"content": "hi"}) as served:
            assert served.status == 200

    assert status == 429
    assert body == {"message": "You are being rate limited.", "retry_after": 1.5, "global": False}
    assert headers["Retry-After"] == "2"
    assert headers["X-RateLimit-Remaining"] == "0"
    assert float(headers["X-RateLimit-Reset-After"]) == 1.5
    assert headers["X-RateLimit-Scope"] == "user"
    assert headers["X-RateLimit-Bucket"]
    assert "Via" in headers  # discord.py treats a 429 without it as a Cloudflare ban
    assert [m.content for m in emu.channel_messages(channel)] == ["hi"]
    emu.assert_no_errors()


async def test_a_global_limit_says_so(emu: DiscordEmulator) -> None:
    emu.rate_limit(r"/users/@me", global_limit=True)

    async with aiohttp.ClientSession() as session, session.get(f"{emu.rest_base}/users/@me") as limited:
        body, headers = await limited.json(), limited.headers

    assert body["global"] is True
    assert headers["X-RateLimit-Global"] == "true"
    assert headers["X-RateLimit-Scope"] == "global"


async def test_discord_py_waits_and_posts_once(emu: DiscordEmulator, bot: EmulatedBot) -> None:
    emu.rate_limit(POSTS, method="POST", times=2)

    result = await emu.run_command(emu.user("alice"), "announce", {"text": "hello"})

    assert result.content == "posted"
    assert [m.content for m in emu.channel_messages(emu.channel("general"))] == ["hello"]
    assert _statuses(emu, "POST", POSTS) == [429, 429, 200]
    emu.assert_no_errors()


async def test_discord_py_gives_up_after_5_tries(emu: DiscordEmulator, bot: EmulatedBot) -> None:
    emu.rate_limit(POSTS, method="POST", times=5)

    result = await emu.run_command(emu.user("alice"), "announce", {"text": "hello"})

    assert result.content == "Discord is unavailable"
    [error] = bot.post_errors
    assert error.status == 429
    assert emu.channel_messages(emu.channel("general")) == []
    assert _statuses(emu, "POST", POSTS) == [429] * 5


async def test_an_interaction_callback_is_retried_too(emu: DiscordEmulator, bot: EmulatedBot) -> None:
    callbacks = r"/interactions/\d+/[^/]+/callback"
    emu.rate_limit(callbacks, method="POST", times=1)

    result = await emu.run_command(emu.user("alice"), "echo", {"text": "hi"})

    assert result.content == "hi (locale fr)"
    assert _statuses(emu, "POST", callbacks) == [429, 200]
    emu.assert_no_errors()


async def test_on_limit_runs_at_each_429(emu: DiscordEmulator, bot: EmulatedBot) -> None:
    hits: list[int] = []
    emu.rate_limit(POSTS, method="POST", times=3, on_limit=lambda: hits.append(1))

    await emu.run_command(emu.user("alice"), "announce", {"text": "hello"})

    assert hits == [1, 1, 1]
    emu.assert_no_errors()


def test_the_global_limit_counts_fifty_a_second_per_token_over_every_connection() -> None:
    now = [100.0]
    limit = GlobalLimit(now=lambda: now[0])
    assert all(limit.check("Bot a", "/channels/1/messages") is None for _ in range(50))
    assert limit.check("Bot a", "/channels/2/messages") == pytest.approx(1.0)  # the 51st of the second
    assert limit.check("Bot b", "/channels/1/messages") is None  # another bot has its own 50
    assert limit.check(None, "/channels/1/messages") is None  # not a bot's request
    now[0] += 0.5
    assert limit.check("Bot a", "/users/@me") == pytest.approx(0.5)
    now[0] += 0.5
    assert limit.check("Bot a", "/users/@me") is None  # the first second is over
    assert limit.refused == 2


def test_interaction_endpoints_are_not_bound_to_the_global_limit() -> None:
    limit = GlobalLimit(per_second=1, now=lambda: 5.0)
    assert limit.check("Bot a", "/channels/1/messages") is None
    assert limit.check("Bot a", "/interactions/12/tok-en/callback") is None
    assert limit.check("Bot a", "/webhooks/34/tok-en") is None
    assert limit.check("Bot a", "/webhooks/34/tok-en/messages/@original") is None
    assert limit.check("Bot a", "/channels/1/messages") is not None


async def test_over_the_global_limit_the_emulator_answers_a_global_429(emu: DiscordEmulator) -> None:
    emu.global_limit = GlobalLimit(per_second=2)
    headers = {"Authorization": "Bot token"}
    url = f"{emu.rest_base}/users/@me"

    async with aiohttp.ClientSession() as first, aiohttp.ClientSession() as second:
        statuses = []
        for session in (first, second, first):  # two connections, one token
            async with session.get(url, headers=headers) as answer:
                statuses.append(answer.status)
                body, limited = await answer.json(), answer.headers

    assert statuses == [200, 200, 429]
    assert body["global"] is True
    assert 0 < body["retry_after"] <= 1.0
    assert limited["X-RateLimit-Global"] == "true"
    assert limited["X-RateLimit-Scope"] == "global"
    assert [r.token for r in emu.requests] == ["Bot token"] * 3
