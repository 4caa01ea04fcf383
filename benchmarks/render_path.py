"""What turning a reply's MessageSpec into what discord.py sends costs, on the event loop (issue 39).

Every reply and every outbox post goes through `discord_app.render.to_discord` and then discord.py's own
writing of the message (`Embed.to_dict`, `View.to_components`): that shared path is measured here alone,
on the very specs the bot rendered in four scenes of the end-to-end tests (a Chocobataille turn, a HOSS
ranked start and decision, a Pillz move, a trade; benchmarks/render_specs.json, their MessageSpec JSON and
the reader's language). Each scene's specs are rendered `--repeat` times; the figure is the median over
`--runs` of the microseconds of this thread's CPU per spec (the machine may be shared). Run it on the
code before and after a change, taking turns.

    python -m benchmarks.render_path [--runs 7] [--repeat 200]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import time
from pathlib import Path
from typing import Any

from core.i18n import catalogs
from discord_app.render import to_discord
from services.infra.messages import MessageSpec

SPECS = Path(__file__).with_name("render_specs.json")


def scenes() -> dict[str, list[tuple[MessageSpec, str]]]:
    data: dict[str, list[dict[str, Any]]] = json.loads(SPECS.read_text(encoding="utf-8"))
    return {
        name: [(MessageSpec.from_json(json.dumps(entry["spec"])), str(entry["locale"])) for entry in entries]
        for name, entries in data.items()
    }


def sent(spec: MessageSpec, locale: str) -> None:
    """The spec rendered, then written as discord.py writes a message's embeds and components."""
    kwargs = to_discord(spec, locale)
    for embed in kwargs["embeds"]:
        embed.to_dict()
    view = kwargs.get("view")
    if view is not None:
        view.to_components()


def per_spec(specs: list[tuple[MessageSpec, str]], repeat: int) -> float:
    """Microseconds of CPU per spec, `specs` rendered `repeat` times over."""
    start = time.thread_time()
    for _ in range(repeat):
        for spec, locale in specs:
            sent(spec, locale)
    return (time.thread_time() - start) / (repeat * len(specs)) * 1e6


async def main(runs: int, repeat: int) -> None:
    catalogs()
    loaded = scenes()
    for specs in loaded.values():  # a first pass fills the caches every reply finds filled
        per_spec(specs, 1)
    print(f"{'scene':<8} {'specs':>5} {'µs/spec (median of ' + str(runs) + ')':>24}")
    for name, specs in loaded.items():
        timings = [per_spec(specs, repeat) for _ in range(runs)]
        print(f"{name:<8} {len(specs):>5} {statistics.median(timings):>24.1f}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--repeat", type=int, default=200)
    options = parser.parse_args()
    asyncio.run(main(options.runs, options.repeat))  # discord.py's views want a running loop
