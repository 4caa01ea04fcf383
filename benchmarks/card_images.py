"""How long a card image takes: drawn cold (layout + PNG encoding, no cache), read from the disk cache,
a HOSS booster's picture (six cards from the cache, scaled into one sheet), per game, and a
Chocobataille hand of 8 as figures (card_images/figures.py: eight tiles drawn, then the PNG).

Cold: every card of every catalog in French, HOSS cards as a copy of a rarity, stars and holo cycled
over the cards (a holo costs the shimmer). Cached: the same requests through `CardImages.image_now` once
the folder holds them (resolving the key, reading and checking the file). Figures are medians and 99th
percentiles in milliseconds; the targets are 30 ms cold and 1 ms cached. On a loaded machine the wall
times include waiting for a core: the thread's CPU time of a cold drawing is printed too.

    python -m benchmarks.card_images [--rounds 3]
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from services.community.card_images import draw
from services.community.card_images.service import CardImages
from services.community.card_images.spec import CardCopy
from services.infra.catalogs import DATA_DIR, load_all
from services.infra.games import GameRegistry
from services.infra.messages import StripCard

HOSS_RARITIES = ("basique", "argent", "or", "platine", "diamant", "divin")


def requests(catalogs: dict[str, Any]) -> list[tuple[str, str, CardCopy | None]]:
    out: list[tuple[str, str, CardCopy | None]] = []
    for game, catalog in sorted(catalogs.items()):
        for index, card in enumerate(catalog.cards):
            copy = CardCopy(HOSS_RARITIES[index % 6], index % 6, index % 7 == 0) if game == "hoss" else None
            out.append((game, card.id, copy))
    return out


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def report(label: str, values: list[float]) -> None:
    print(
        f"{label:<28} n={len(values):>5}  median {statistics.median(values):7.3f} ms  p99 {percentile(values, 0.99):7.3f} ms"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    registry = GameRegistry.discover()
    specs = [s for s in registry.all_games() if s.card_art is not None]
    catalogs = dict(load_all(DATA_DIR, specs))
    wanted = requests(catalogs)
    with tempfile.TemporaryDirectory() as folder:
        images = CardImages(Path(folder), catalogs, registry)
        cold: dict[str, list[float]] = {}
        cpu: list[float] = []
        for _ in range(args.rounds):
            for game, card_id, copy in wanted:
                request = images.request(game, card_id, copy, "fr")
                start, start_cpu = time.perf_counter(), time.thread_time()
                data = draw.png(images.draw(request).image)
                cold.setdefault(game, []).append((time.perf_counter() - start) * 1000)
                cpu.append((time.thread_time() - start_cpu) * 1000)
                images.cache.put(request.name, data)
        cached: list[float] = []
        for _ in range(args.rounds):
            for game, card_id, copy in wanted:
                start = time.perf_counter()
                images.image_now(game, card_id, copy, "fr")
                cached.append((time.perf_counter() - start) * 1000)
        choco = [StripCard(card_id) for game, card_id, _ in wanted if game == "choco"]
        hands: list[float] = []
        for index in range(0, len(choco) - 8, 8):  # new cards each time: their tiles are drawn
            start = time.perf_counter()
            images.strip_now("choco", choco[index : index + 8], "fr", figures=True)
            hands.append((time.perf_counter() - start) * 1000)
        hoss = [(card_id, copy) for game, card_id, copy in wanted if game == "hoss" and copy is not None]
        sheets: list[float] = []
        for index in range(0, len(hoss) - 6, 6):
            start = time.perf_counter()
            images.sheet_now("hoss", [*hoss[index : index + 4], None, None], "fr", 3)
            sheets.append((time.perf_counter() - start) * 1000)
    for game, values in sorted(cold.items()):
        report(f"cold {game}", values)
    report("cold, every game", [v for values in cold.values() for v in values])
    report("cold, CPU time of the thread", cpu)
    report("cached, every game", cached)
    report("HOSS booster sheet (cached)", sheets)
    report("hand of 8 as figures (new)", hands)


if __name__ == "__main__":
    main()
