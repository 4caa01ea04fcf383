"""How much of the machine a benchmark actually had: the CPU time its host took away (steal).

The machines these figures come from are virtual: two virtual CPUs on a shared host. The load average
counts only this machine's own work, so a run can show a load average of 1 and still be slow because the
host ran another guest on our CPUs. Linux counts that time as *steal* (the 8th value of /proc/stat's
`cpu` line): a virtual CPU was ready to run and the host did not run it. `benchmarks.debits` follows it
(eight runs of the same code one after another: 13,038 debits/s at 7 % steal, 9,671 at 29 %, 7,827 at
32 %), so every run prints it beside its figures, and a figure is compared with another only at a similar
steal. Steal is not all of it: with none, the same code read 16,110 to 19,040 debits/s on one day and
21,296 to 22,351 on quieter ones (the disk's flush time, the host's caches, which no counter here shows).
"""

from __future__ import annotations

import statistics
from dataclasses import dataclass
from pathlib import Path

PROC_STAT = Path("/proc/stat")
# /proc/stat's `cpu` line, in its order (proc(5)); later kernels add guest times, which we do not need.
FIELDS = ("user", "nice", "system", "idle", "iowait", "irq", "softirq", "steal")


@dataclass(frozen=True)
class CpuTimes:
    """The machine's CPU time in clock ticks since boot, summed over its CPUs, as /proc/stat counts it."""

    user: int
    nice: int
    system: int
    idle: int
    iowait: int
    irq: int
    softirq: int
    steal: int

    @classmethod
    def parse(cls, text: str) -> CpuTimes:
        """The first line of /proc/stat: `cpu  user nice system idle iowait irq softirq steal ...`."""
        first = text.splitlines()[0].split() if text.strip() else []
        values = first[1 : 1 + len(FIELDS)]
        if first[:1] != ["cpu"] or len(values) < len(FIELDS) or not all(v.isdigit() for v in values):
            raise ValueError(f"not a /proc/stat cpu line: {text[:80]!r}")
        return cls(*(int(value) for value in values))

    @classmethod
    def now(cls) -> CpuTimes | None:
        """None where there is no /proc/stat (not Linux): the figures are then printed without it."""
        try:
            return cls.parse(PROC_STAT.read_text(encoding="ascii"))
        except (OSError, ValueError):
            return None

    @property
    def total(self) -> int:
        return sum(getattr(self, name) for name in FIELDS)


def steal_share(before: CpuTimes | None, after: CpuTimes | None) -> float | None:
    """The share (0..1) of all CPU time between two readings that the host took; None if unknown."""
    if before is None or after is None:
        return None
    elapsed = after.total - before.total
    if elapsed <= 0:
        return None  # too short to count a tick
    return (after.steal - before.steal) / elapsed


def describe_steal(share: float | None) -> str:
    return "steal ?" if share is None else f"steal {share * 100:4.1f} %"


def median_steal(shares: list[float | None]) -> float | None:
    """The median of the runs' steal where it was read (a run's median line prints it too)."""
    known = [share for share in shares if share is not None]
    return statistics.median(known) if known else None
