"""benchmarks.host: the host's stolen CPU time read from /proc/stat, and the debits benchmark printing it."""

from __future__ import annotations

import sys

import pytest

from benchmarks import debits
from benchmarks.databases import target
from benchmarks.host import CpuTimes, describe_steal, median_steal, steal_share
from store.db import MAX_BATCH

BEFORE = "cpu  6590094 2683 1124373 4622260 98375 0 109368 339567 0 0\ncpu0 1 2 3 4 5 6 7 8 0 0\n"
AFTER = "cpu  6590194 2683 1124423 4622360 98385 0 109368 339607 0 0\n"


def test_the_cpu_line_is_read_in_proc_stats_order() -> None:
    times = CpuTimes.parse(BEFORE)
    assert (times.user, times.system, times.idle, times.iowait, times.steal) == (
        6590094,
        1124373,
        4622260,
        98375,
        339567,
    )
    assert times.total == 6590094 + 2683 + 1124373 + 4622260 + 98375 + 0 + 109368 + 339567


def test_steal_is_the_share_of_all_cpu_time_between_two_readings() -> None:
    share = steal_share(CpuTimes.parse(BEFORE), CpuTimes.parse(AFTER))
    # 100 user + 50 system + 100 idle + 10 iowait + 40 steal ticks: 40 of 300
    assert share == pytest.approx(40 / 300)
    assert describe_steal(share) == "steal 13.3 %"


@pytest.mark.parametrize("text", ["", "intr 1 2 3\n", "cpu 1 2 3\n", "cpu a b c d e f g h\n"])
def test_a_line_that_is_not_proc_stats_cpu_line_is_refused(text: str) -> None:
    with pytest.raises(ValueError, match="not a /proc/stat cpu line"):
        CpuTimes.parse(text)


def test_an_unknown_or_too_short_interval_says_so_instead_of_a_number() -> None:
    times = CpuTimes.parse(BEFORE)
    assert steal_share(None, times) is None
    assert steal_share(times, times) is None
    assert describe_steal(None) == "steal ?"


def test_the_median_steal_leaves_out_the_runs_that_could_not_read_it() -> None:
    assert median_steal([0.1, None, 0.3, 0.2]) == pytest.approx(0.2)
    assert median_steal([None, None]) is None


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="/proc/stat is Linux's")
def test_this_machine_is_read() -> None:
    first, second = CpuTimes.now(), CpuTimes.now()
    assert first is not None
    assert second is not None
    assert second.total >= first.total


async def test_a_debits_run_prints_the_steal_of_its_own_interval() -> None:
    with target("sqlite") as where:
        figures = await debits.run_once(where, "group commit", 400, 8, MAX_BATCH)
    assert figures.ops == 400
    assert figures.steal is None or 0.0 <= figures.steal <= 1.0
    assert "steal" in figures.line()
    median = debits._median("group commit", [figures, figures])
    assert median.steal == figures.steal
