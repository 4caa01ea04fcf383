"""A bad or missing setting stops start-up with one line naming it, and no traceback."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from core.settings import SettingsError, load_settings, shard_of

ROOT = Path(__file__).resolve().parents[2]


def test_defaults() -> None:
    settings = load_settings(require_token=False, env_file=None)
    assert settings.default_locale == "fr"
    assert settings.timezone == "Europe/Paris"
    assert settings.database_path == Path("var/bot.sqlite3")
    assert settings.dev_guild_id is None
    assert settings.owner_ids == frozenset()


def test_values_from_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OWNER_IDS", "12, 34")
    monkeypatch.setenv("DEV_GUILD_ID", "99")
    monkeypatch.setenv("LOG_LEVEL", "debug")
    monkeypatch.setenv("DISCORD_TOKEN", "abc")
    settings = load_settings(require_token=True, env_file=None)
    assert settings.owner_ids == frozenset({12, 34})
    assert settings.dev_guild_id == 99
    assert settings.log_level == "DEBUG"


def test_values_from_env_file(tmp_path: Path) -> None:
    env = tmp_path / ".env"
    env.write_text("DISCORD_TOKEN=from-file\nDEFAULT_LOCALE=en\n", encoding="utf-8")
    settings = load_settings(require_token=True, env_file=str(env))
    assert settings.discord_token == "from-file"
    assert settings.default_locale == "en"


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("OWNER_IDS", "alice"),
        ("DEV_GUILD_ID", "not-a-number"),
        ("DEFAULT_LOCALE", "de"),
        ("TIMEZONE", "Mars/Olympus"),
        ("LOG_LEVEL", "LOUD"),
        ("SHARD_COUNT", "0"),
        ("SHARD_COUNT", "two"),
    ],
)
def test_bad_setting_is_named(monkeypatch: pytest.MonkeyPatch, name: str, value: str) -> None:
    monkeypatch.setenv(name, value)
    with pytest.raises(SettingsError) as caught:
        load_settings(require_token=False, env_file=None)
    assert str(caught.value).startswith(f"Invalid setting {name}:")
    assert "\n" not in str(caught.value)


def test_no_shard_count_is_one_unsharded_connection() -> None:
    settings = load_settings(require_token=False, env_file=None)
    assert settings.shard_count is None
    assert settings.shards is None
    assert settings.holds(123 << 22)


def test_shard_ids_default_to_every_shard_of_the_count(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SHARD_COUNT", "3")
    settings = load_settings(require_token=False, env_file=None)
    assert settings.shards == (0, 1, 2)
    assert all(settings.holds(n << 22) for n in range(6))


def test_a_process_holds_the_servers_of_its_shards(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SHARD_COUNT", "3")
    monkeypatch.setenv("SHARD_IDS", " 2, 0 ")
    settings = load_settings(require_token=False, env_file=None)
    assert settings.shards == (0, 2)
    assert shard_of(5 << 22, 3) == 2
    assert [n for n in range(6) if settings.holds((n << 22) + 17)] == [0, 2, 3, 5]


@pytest.mark.parametrize(
    ("count", "ids", "reason"),
    [
        ("", "0", "needs SHARD_COUNT"),
        ("2", "2", "shard 2 is not in 0..1"),
        ("2", "-1", "shard -1 is not in 0..1"),
        ("2", "1,1", "a shard is listed twice"),
        ("2", "one", "expected shard numbers separated by commas"),
    ],
)
def test_bad_shard_ids_are_named(monkeypatch: pytest.MonkeyPatch, count: str, ids: str, reason: str) -> None:
    monkeypatch.setenv("SHARD_COUNT", count)
    monkeypatch.setenv("SHARD_IDS", ids)
    with pytest.raises(SettingsError) as caught:
        load_settings(require_token=False, env_file=None)
    assert str(caught.value).startswith("Invalid setting SHARD_IDS:")
    assert reason in str(caught.value)
    assert "\n" not in str(caught.value)


def test_missing_token_explains_how_to_set_one() -> None:
    with pytest.raises(SettingsError) as caught:
        load_settings(require_token=True, env_file=None)
    assert "DISCORD_TOKEN" in str(caught.value)
    assert ".env" in str(caught.value)
    assert "--sandbox" in str(caught.value)


def _run_bot(tmp_path: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(ROOT / "bot.py")],
        cwd=tmp_path,  # no .env there
        env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT), **env},
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def test_start_without_token_exits_cleanly(tmp_path: Path) -> None:
    result = _run_bot(tmp_path, {})
    assert result.returncode == 2
    assert "DISCORD_TOKEN" in result.stderr
    assert "--sandbox" in result.stderr
    assert "Traceback" not in result.stderr + result.stdout


def test_start_with_bad_setting_exits_cleanly(tmp_path: Path) -> None:
    result = _run_bot(tmp_path, {"DISCORD_TOKEN": "x", "TIMEZONE": "Nowhere/Land"})
    assert result.returncode == 2
    assert result.stderr.strip().startswith("Invalid setting TIMEZONE")
    assert "Traceback" not in result.stderr + result.stdout


def test_start_with_a_shard_past_the_count_exits_cleanly(tmp_path: Path) -> None:
    result = _run_bot(tmp_path, {"DISCORD_TOKEN": "x", "SHARD_COUNT": "2", "SHARD_IDS": "0,2"})
    assert result.returncode == 2
    [line] = result.stderr.splitlines()
    assert line.startswith("Invalid setting SHARD_IDS: ")
    assert result.stdout == ""
