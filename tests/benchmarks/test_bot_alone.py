"""`benchmarks.bot_alone --bare`: the bare /ping bot in its own process, measured through the same phases."""

from __future__ import annotations

import asyncio
import dataclasses
import re
import tempfile
from pathlib import Path

import pytest

from benchmarks.bot_alone import BARE, COLLECTION, Options, Phase, capacity, fleet_on, main
from benchmarks.command_latency import Figures
from benchmarks.host import describe_steal

# Enough commands per phase for the bot process's CPU, read in clock ticks, to be above zero.
OPTIONS = Options(
    "sqlite",
    processes=1,
    users=5,
    rounds=20,
    runs=1,
    baseline=60,
    rates=[100.0],
    seconds=1.0,
    seed=1,
    bare=True,
)


async def test_the_bare_bot_answers_every_phase_and_its_cpu_is_measured() -> None:
    lines: list[str] = []
    medians = await main(OPTIONS, lines.append)
    assert lines[0].startswith("bare discord.py /ping end to end;")
    assert "no database" in lines[1]
    assert [phase.rate for phase in medians] == [None, 100.0, None]
    assert [phase.figures.commands >= 60 for phase in medians] == [True, True, True]
    for phase in medians:
        assert phase.bot_cpu_seconds > 0
        assert phase.figures.cpu_seconds > 0
        assert phase.steal is None or 0.0 <= phase.steal <= 1.0
        assert describe_steal(phase.steal) in phase.line()
    assert lines[-1].startswith('verification: every reply was an ephemeral "pong"')


async def test_the_bare_process_syncs_ping_to_its_guild_and_freezes_once_ready() -> None:
    async with fleet_on(None, 1, 1, BARE) as (fleet, _, _):
        (guild,) = fleet.guilds
        assert [c["name"] for c in fleet.emu.commands.payloads(guild.id)] == ["ping"]
        assert fleet.emu.commands.payloads(None) == []
        for _ in range(200):  # on_ready may run just after the emulator saw the bot ready
            if " objects frozen" in fleet.log_text():
                break
            await asyncio.sleep(0.05)
        assert re.search(r"ready in 1 servers, [1-9]\d* objects frozen", fleet.log_text())


@pytest.mark.parametrize(
    "options",
    [
        dataclasses.replace(OPTIONS, processes=2, users=4),
        dataclasses.replace(OPTIONS, database="postgresql"),
    ],
    ids=["two processes", "postgresql"],
)
async def test_bare_is_refused_with_several_processes_or_a_database(options: Options) -> None:
    with pytest.raises(SystemExit, match="--bare runs one process and no database"):
        await main(options, lambda line: None)


async def test_compare_measures_the_bare_bot_then_the_collection_and_prints_the_ratios() -> None:
    lines: list[str] = []
    options = dataclasses.replace(OPTIONS, bare=False, load="collection", compare=True)
    medians = await main(options, lines.append)
    assert lines[0].startswith("bare discord.py /ping then bot.py /hoss collection end to end;")
    assert "SQLite" in lines[1]
    assert [phase.figures.commands >= 60 for phase in medians] == [True, True, True]
    for phase in medians:  # bot.py's: its process did the work
        assert phase.bot_cpu_seconds > 0
    start = lines.index("bot.py /hoss collection / bare discord.py /ping, from the medians:")
    ratio_lines = lines[start + 1 : start + 4]
    assert [line.split("  ")[0].strip() for line in ratio_lines] == [
        "1 user, sequential",
        "5 users paced 100/s",
        "5 users x 20, closed loop",
    ]
    assert all(re.search(r"bot cpu/cmd +\d+\.\d\dx .* cmd/s +\d+\.\d\dx$", line) for line in ratio_lines)
    assert lines[-1] == (
        'verification: every reply was an ephemeral "pong" and the user\'s own ephemeral page of 24 '
        "copies; no emulator error; bots exited cleanly: OK"
    )


async def test_the_collection_load_grants_each_player_24_copies_before_the_bot_starts() -> None:
    with tempfile.TemporaryDirectory() as folder:
        url = f"sqlite:///{Path(folder) / 'bench.sqlite3'}"
        async with fleet_on(url, 1, 3, COLLECTION) as (fleet, players, channel_of):
            for user in players:
                reply = await fleet.emu.run_command(user, "hoss collection", channel=channel_of[user.id])
                COLLECTION.check(user, reply)  # raises unless the user's own page of 24
            stranger = fleet.emu.add_user("inconnu", locale="fr")
            reply = await fleet.emu.run_command(
                stranger, "hoss collection", channel=channel_of[players[0].id]
            )
            with pytest.raises(SystemExit, match="UNEXPECTED REPLY"):
                COLLECTION.check(stranger, reply)


async def test_compare_is_refused_with_several_processes() -> None:
    options = dataclasses.replace(OPTIONS, bare=False, compare=True, processes=2, users=4)
    with pytest.raises(SystemExit, match="--compare also runs the bare bot"):
        await main(options, lambda line: None)


def _closed(commands: int, seconds: float, users_cpu: float, bot_cpu: float) -> Phase:
    return Phase(Figures("closed loop (median)", commands, seconds, users_cpu, 1.0, 2.0, 3.0, 4.0), bot_cpu)


def test_the_closed_loop_names_whose_ceiling_it_measured() -> None:
    # the users' side at 99 % of its core, the bot at 79 % and 0.46 ms a command
    users_bound = capacity(_closed(1000, 0.5859, 0.58, 0.46), 1)
    assert users_bound.startswith("closed loop: 1707 commands/s with the bot at 79% of a core")
    assert "users' side at 99%: the users' side's ceiling" in users_bound
    assert "about 2,174 commands/s with a core per process (an estimate, not measured)" in users_bound
    assert "about 4,348 commands/s" in capacity(_closed(1000, 0.5859, 0.58, 0.46), 2)
    bot_bound = capacity(_closed(1000, 1.0, 0.5, 0.98), 1)
    assert bot_bound.endswith("users' side at 50%: the bot's own ceiling")
    assert "estimate" not in bot_bound
    assert capacity(_closed(10, 0.01, 0.01, 0.0), 1).endswith("the bot's CPU was too little to read")
