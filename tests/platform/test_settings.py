"""A bad or missing setting stops start-up with one line naming it, and no traceback."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from core.settings import SettingsError, load_settings

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
    ],
)
def test_bad_setting_is_named(monkeypatch: pytest.MonkeyPatch, name: str, value: str) -> None:
    monkeypatch.setenv(name, value)
    with pytest.raises(SettingsError) as caught:
        load_settings(require_token=False, env_file=None)
    assert str(caught.value).startswith(f"Invalid setting {name}:")
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
