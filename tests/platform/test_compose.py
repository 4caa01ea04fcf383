"""deploy/compose.yaml: PostgreSQL 15 and the bot processes, each with what it needs to hold its shards."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from core.settings import Settings
from tests.fixtures.yaml_subset import YamlSubsetError, load

ROOT = Path(__file__).resolve().parents[2]
COMPOSE = ROOT / "deploy" / "compose.yaml"
NEEDED = {"DATABASE_URL", "DISCORD_TOKEN", "SHARD_COUNT", "SHARD_IDS"}
SHARDING = {"SHARD_COUNT", "SHARD_IDS"}


def _compose() -> dict[str, Any]:
    document = load(COMPOSE.read_text(encoding="utf-8"))
    assert isinstance(document, dict)
    return document


def _bots(document: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {name: service for name, service in document["services"].items() if name != "postgres"}


def test_postgresql_15_keeps_its_data_in_a_volume_and_says_when_it_is_ready() -> None:
    document = _compose()
    postgres = document["services"]["postgres"]
    assert postgres["image"] == "postgres:15"
    volume = postgres["volumes"][0].split(":")[0]
    assert volume in document["volumes"]
    assert postgres["volumes"][0].endswith(":/var/lib/postgresql/data")
    assert postgres["healthcheck"]["test"][0] == "CMD-SHELL"
    assert "pg_isready" in postgres["healthcheck"]["test"][1]


def test_each_bot_has_its_settings_and_waits_for_the_database() -> None:
    document = _compose()
    bots = _bots(document)
    assert len(bots) >= 2
    database = document["services"]["postgres"]["environment"]
    for name, service in bots.items():
        environment = service["environment"]
        assert set(environment) >= NEEDED, name
        # Every other name is a setting the bot reads (a misspelt one would be ignored silently).
        known = {field.upper() for field in Settings.model_fields} | SHARDING
        assert set(environment) <= known, (name, set(environment) - known)
        url = environment["DATABASE_URL"]
        assert url.startswith(f"postgresql://{database['POSTGRES_USER']}:"), name
        assert url.endswith(f"@postgres:5432/{database['POSTGRES_DB']}"), name
        assert environment["DISCORD_TOKEN"].startswith("${DISCORD_TOKEN:?"), name  # refused when unset
        assert service["depends_on"]["postgres"]["condition"] == "service_healthy", name
        assert service["build"]["dockerfile"] == "deploy/Dockerfile", name
        assert (ROOT / "deploy" / service["build"]["context"] / service["build"]["dockerfile"]).is_file()


def test_the_shard_ids_cover_zero_to_count_minus_one_exactly_once() -> None:
    bots = _bots(_compose())
    counts = {int(service["environment"]["SHARD_COUNT"]) for service in bots.values()}
    assert len(counts) == 1, f"every process must be told the same SHARD_COUNT, got {counts}"
    [count] = counts
    held = [
        int(part) for service in bots.values() for part in str(service["environment"]["SHARD_IDS"]).split(",")
    ]
    assert sorted(held) == list(range(count))


def test_the_reader_reads_the_subset_as_yaml_does() -> None:
    text = """
# a comment
name: demo
services:
  a:
    image: "postgres:15"   # quoted, then a comment
    count: '2'
    port: 5432
    on: true
    empty:
    list:
      - CMD-SHELL
      - pg_isready -U bot # trailing comment
volumes:
  data:
"""
    assert load(text) == {
        "name": "demo",
        "services": {
            "a": {
                "image": "postgres:15",
                "count": "2",
                "port": 5432,
                "on": True,
                "empty": None,
                "list": ["CMD-SHELL", "pg_isready -U bot"],
            }
        },
        "volumes": {"data": None},
    }


@pytest.mark.parametrize(
    "text",
    [
        "a: &anchor 1",
        "a: *alias",
        "a: {b: 1}",
        "a: [1, 2]",
        "a: |\n  text",
        "a: 1\na: 2",
        "a:\n\t- 1",
        "a: b: c",
        'a: "unterminated',
        "a:\n  - b: 1",
        "a: 1\n   b: 2",
    ],
)
def test_the_reader_refuses_what_it_does_not_read(text: str) -> None:
    with pytest.raises(YamlSubsetError):
        load(text)
