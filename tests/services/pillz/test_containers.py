"""Two containers in one process are independent: each names a Pillz clan from its own catalog.

A card only names its clan by id; the name used to come from a module-level dict that every `build()`
filled, so the last container built renamed the clans of every other one."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from core.clock import ManualClock
from core.settings import Settings
from discord_app.render import text
from services.infra.catalogs import DATA_DIR
from services.infra.container import Services, build_services
from services.shared.render.cards import card_spec
from tests.services.pillz.small_catalog import catalog_data


def data_dir(root: Path, wind_clan: str) -> Path:
    """The real catalogs, with a small Pillz catalog whose "kaze" clan is called `wind_clan` in English."""
    root.mkdir(parents=True)
    for path in DATA_DIR.glob("*.json"):
        shutil.copy(path, root / path.name)
    data = catalog_data()
    for clan in data["clans"]:
        if clan["id"] == "kaze":
            clan["name"]["en"] = wind_clan
    (root / "pillz.json").write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    return root


async def container(root: Path, wind_clan: str) -> Services:
    settings = Settings(_env_file=None, discord_token="token", database_path=root / "bot.sqlite3")
    return await build_services(settings, ManualClock(), data_dir=data_dir(root / "data", wind_clan))


def clan_shown(services: Services) -> str:
    """The clan line of /card for a "kaze" character, as this container renders it in English."""
    ref = services.cards.ref("pillz", "kaze_1_1")
    card = services.cards.get("pillz", "kaze_1_1")
    assert ref is not None
    assert card is not None
    spec = card_spec(ref, card, services.cards.catalog("pillz"), "en", services.registry)
    fields = {text(f.name, "en"): text(f.value, "en") for f in spec.embeds[0].fields}
    return fields["Clan"]


async def test_each_container_names_clans_from_its_own_catalog(tmp_path: Path) -> None:
    first = await container(tmp_path / "first", "Wind Clan")
    try:
        second = await container(tmp_path / "second", "Gale Clan")
        try:
            assert clan_shown(first) == "Wind Clan"
            assert clan_shown(second) == "Gale Clan"
        finally:
            await second.close()
    finally:
        await first.close()
