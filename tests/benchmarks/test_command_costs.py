"""`benchmarks.command_costs` in its smallest form: two loads, one run, a few commands, each bot in its own
process; the table it prints and the trips it counts."""

from __future__ import annotations

import re

from benchmarks.command_costs import HEADER, Options, main


async def test_two_loads_measure_three_bots_and_print_the_table() -> None:
    lines: list[str] = []
    rows = await main(Options(["sale", "card"], runs=1, commands=2), lines.append)
    assert [row.load.name for row in rows] == ["sale", "card"]
    for row in rows:  # each bot's process did some work for each command
        assert len(row.bare) == len(row.matched) == len(row.real) == 1
        assert min(row.bare[0], row.matched[0], row.real[0]) > 0
        assert row.interactions == 1
    sale, card = rows
    assert sale.writes == 1  # the copy sold and the gold paid: one write unit
    assert card.writes == 0
    table = lines.index(HEADER)
    assert re.fullmatch(
        r"\| HOSS sale \(one copy\) \| \d+\.\d\d \| \d+\.\d\d \| \d+\.\d\d×(?: \*\*)? \|.*", lines[table + 1]
    )
    assert lines[table + 2].startswith("| /carte (its picture cached) |")
    assert lines[-1].startswith("verification: every reply was checked")
