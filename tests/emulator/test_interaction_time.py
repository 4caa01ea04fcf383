"""Discord's clocks on interactions: a first response within 3 s, a token valid for 15 minutes.

Both figures are from Discord's "Receiving and Responding" page. The emulator reads time from the clock it
was given (the bot's injected clock in the end-to-end tests), so these tests move a clock while the bot
is held between two steps of a command.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable

import discord
import pytest
import pytest_asyncio

from emulator import DiscordEmulator, EmulatorError
from emulator.interactions import InteractionResult
from tests.emulator.conftest import EmulatedBot, running

START = 1_767_614_400.0  # 2026-01-05 12:00 UTC


class Clock:
    def __init__(self) -> None:
        self.now = START

    def __call__(self) -> float:
        return self.now


class GatedBot(EmulatedBot):
    """Commands that stop at a gate the test opens after moving the clock: the bot's slow step."""

    def __init__(self, guild_id: int) -> None:
        super().__init__(guild_id)
        self.reached = asyncio.Event()
        self.gate = asyncio.Event()

    async def hold(self) -> None:
        self.reached.set()
        await self.gate.wait()

    async def setup_hook(self) -> None:
        guild = discord.Object(self.guild_id)

        @self.tree.command(
            name="work-then-reply", description="Slow work, then the first response", guild=guild
        )
        async def work_then_reply(interaction: discord.Interaction) -> None:
            await self.hold()
            await interaction.response.send_message("done")

        @self.tree.command(name="defer-then-work", description="Defers, works, follows up", guild=guild)
        async def defer_then_work(interaction: discord.Interaction) -> None:
            await interaction.response.defer(thinking=True)
            await self.hold()
            await interaction.followup.send("done after the work")

        @self.tree.command(name="reply-then-edit", description="Replies, later edits the reply", guild=guild)
        async def reply_then_edit(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("first version")
            await self.hold()
            await interaction.edit_original_response(content="second version")

        await super().setup_hook()


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest_asyncio.fixture
async def timed_emu(clock: Clock) -> AsyncIterator[DiscordEmulator]:
    emulator = DiscordEmulator(clock=clock)
    emulator.add_guild("Test Server", locale="fr")
    emulator.add_user("alice", locale="fr")
    async with emulator:
        yield emulator


@pytest_asyncio.fixture
async def gated(timed_emu: DiscordEmulator) -> AsyncIterator[GatedBot]:
    async with running(timed_emu, GatedBot(timed_emu.guild("Test Server").id)) as client:
        yield client


async def _held(
    emu: DiscordEmulator, bot: GatedBot, clock: Clock, command: str, seconds: float
) -> asyncio.Task[InteractionResult]:
    """Start ``command``, wait until the bot reaches its slow step, move the clock, let the bot go on."""
    action = asyncio.create_task(emu.run_command(emu.user("alice"), command))
    await bot.reached.wait()
    clock.now += seconds
    bot.gate.set()
    return action


async def _only_failure(emu: DiscordEmulator, bot: GatedBot) -> discord.HTTPException:
    """The one error the bot got; an action fails as soon as the emulator refuses, before the bot reads
    the refusal, hence the settle."""
    await emu.settle()
    [error] = bot.failures
    original = getattr(error, "original", error)
    assert isinstance(original, discord.HTTPException)
    bot.failures.clear()
    return original


@pytest.mark.parametrize(
    ("command", "seconds", "content"),
    [("work-then-reply", 2.9, "done"), ("defer-then-work", 14 * 60, "done after the work")],
)
async def test_answers_in_time_are_accepted(
    timed_emu: DiscordEmulator, gated: GatedBot, clock: Clock, command: str, seconds: float, content: str
) -> None:
    """Within 3 s for the first response; a deferral leaves the token's 15 minutes for the follow-up."""
    action = await _held(timed_emu, gated, clock, command, seconds)

    result = await action

    assert result.content == content
    timed_emu.assert_no_errors()


@pytest.mark.parametrize(
    ("command", "seconds", "status", "code"),
    [("work-then-reply", 3.1, 404, 10062), ("defer-then-work", 15 * 60 + 1, 401, 50027)],
)
async def test_late_answers_fail_like_discord(
    timed_emu: DiscordEmulator,
    gated: GatedBot,
    clock: Clock,
    command: str,
    seconds: float,
    status: int,
    code: int,
) -> None:
    """A first response after 3 s: Unknown interaction. A follow-up after 15 minutes: Invalid Webhook
    Token. Either way the user sees no answer (at most the deferral's "thinking" message)."""
    action = await _held(timed_emu, gated, clock, command, seconds)

    with pytest.raises(EmulatorError, match=f"{status} {code}"):
        await action

    error = await _only_failure(timed_emu, gated)
    assert (error.status, error.code) == (status, code)
    assert all(message.loading for message in timed_emu.messages)
    [recorded] = timed_emu.errors
    assert f"{status} {code}" in recorded
    timed_emu.errors.clear()


async def _reply_then_edit_after(
    emu: DiscordEmulator, bot: GatedBot, clock: Clock, seconds: float
) -> Callable[[], str]:
    result = await emu.run_command(emu.user("alice"), "reply-then-edit")
    assert result.content == "first version"
    await bot.reached.wait()
    clock.now += seconds
    bot.gate.set()
    await emu.settle()
    return lambda: result.content


async def test_an_edit_of_the_original_response_within_15_minutes_is_accepted(
    timed_emu: DiscordEmulator, gated: GatedBot, clock: Clock
) -> None:
    content = await _reply_then_edit_after(timed_emu, gated, clock, 15 * 60 - 1)

    assert content() == "second version"
    timed_emu.assert_no_errors()


async def test_an_edit_of_the_original_response_after_15_minutes_fails(
    timed_emu: DiscordEmulator, gated: GatedBot, clock: Clock
) -> None:
    content = await _reply_then_edit_after(timed_emu, gated, clock, 16 * 60)

    assert content() == "first version"
    error = await _only_failure(timed_emu, gated)
    assert error.status == 401
    assert error.code == 50027
    [edit] = [r for r in timed_emu.requests if r.method == "PATCH"]
    assert edit.status == 401
    assert len(timed_emu.errors) == 1
    assert "Invalid Webhook Token" in timed_emu.errors[0]
    timed_emu.errors.clear()


async def test_a_rate_limited_call_before_the_first_response_makes_it_late(
    timed_emu: DiscordEmulator, gated: GatedBot, clock: Clock
) -> None:
    """``hand`` sends a DM before answering: a 429 standing for a 5 s wait makes the answer late."""
    timed_emu.rate_limit(r"/channels/\d+/messages", method="POST", on_limit=lambda: _move(clock, 5))

    with pytest.raises(EmulatorError, match="Unknown interaction"):
        await timed_emu.run_command(timed_emu.user("alice"), "hand")

    error = await _only_failure(timed_emu, gated)
    assert error.code == 10062
    timed_emu.errors.clear()


async def test_deferring_first_survives_the_same_rate_limit(
    timed_emu: DiscordEmulator, gated: GatedBot, clock: Clock
) -> None:
    """``announce`` defers, then posts: the same 429 only delays the follow-up."""
    timed_emu.rate_limit(r"/channels/\d+/messages", method="POST", on_limit=lambda: _move(clock, 5))

    result = await timed_emu.run_command(timed_emu.user("alice"), "announce", {"text": "hello"})

    assert result.content == "posted"
    assert [m.content for m in timed_emu.channel_messages(timed_emu.channel("general"))] == ["hello"]
    timed_emu.assert_no_errors()


def _move(clock: Clock, seconds: float) -> None:
    clock.now += seconds
