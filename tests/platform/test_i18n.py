"""Both languages are complete, placeholders agree, and no catalog key is dead or missing."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from core.clock import ManualClock
from core.i18n import catalogs, format_decimal, format_int, normalize_locale, placeholders, t
from core.settings import load_settings
from discord_app.bot import CardBot, cog_modules
from discord_app.translator import translation_keys

ROOT = Path(__file__).resolve().parents[2]
CODE_DIRS = ("bot.py", "cogs", "core", "discord_app", "engine", "services", "store", "sandbox")
KEY_LITERAL = re.compile(r"""["']([a-z][a-z0-9_]*(?:\.[a-z0-9_-]+)+)["']""")


def code_files() -> list[Path]:
    files: list[Path] = []
    for name in CODE_DIRS:
        path = ROOT / name
        files.extend([path] if path.is_file() else sorted(path.rglob("*.py")))
    return files


def literal_keys() -> set[str]:
    known = set(catalogs()["fr"]) | set(catalogs()["en"])
    found: set[str] = set()
    for path in code_files():
        for match in KEY_LITERAL.finditer(path.read_text(encoding="utf-8")):
            if match.group(1) in known or match.group(1).split(".")[0] in {k.split(".")[0] for k in known}:
                found.add(match.group(1))
    return found


@pytest.fixture
async def tree_keys() -> set[str]:
    bot = CardBot(load_settings(require_token=False, env_file=None), ManualClock())
    for module in cog_modules():
        await bot.load_extension(module)
    return translation_keys(bot.tree)


def test_both_languages_have_the_same_keys() -> None:
    fr, en = catalogs()["fr"], catalogs()["en"]
    assert sorted(set(fr) - set(en)) == [], "missing in English"
    assert sorted(set(en) - set(fr)) == [], "missing in French"


def test_placeholders_agree_between_languages() -> None:
    fr, en = catalogs()["fr"], catalogs()["en"]
    mismatched = [k for k in fr if placeholders(fr[k]) != placeholders(en[k])]
    assert mismatched == []


async def test_every_command_string_is_translated(tree_keys: set[str]) -> None:
    for lang, table in catalogs().items():
        assert sorted(tree_keys - set(table)) == [], f"command strings missing in {lang}"


async def test_every_catalog_key_is_used(tree_keys: set[str]) -> None:
    used = literal_keys() | tree_keys
    unused = sorted(set(catalogs()["fr"]) - used)
    assert unused == [], f"catalog keys no code uses: {unused}"


def test_every_key_the_code_names_exists() -> None:
    known = set(catalogs()["fr"])
    missing = sorted(k for k in literal_keys() if k not in known and not k.startswith(("data.", "tests.")))
    assert missing == []


async def test_command_names_follow_discord_rules(tree_keys: set[str]) -> None:
    name_rule = re.compile(r"^[-_'\w]{1,32}$")
    for lang, table in catalogs().items():
        for key in tree_keys:
            if key.endswith(".name") and key.startswith("cmd."):
                assert name_rule.match(table[key]), (lang, key, table[key])
                assert table[key] == table[key].lower(), (lang, key, table[key])
            if key.endswith(".description"):
                assert 1 <= len(table[key]) <= 100, (lang, key)


def test_locale_mapping() -> None:
    assert normalize_locale("fr") == "fr"
    assert normalize_locale("en-US") == "en"
    assert normalize_locale("en-GB") == "en"
    assert normalize_locale("de") == "fr"
    assert normalize_locale(None) == "fr"


def test_translation_falls_back_and_formats() -> None:
    assert t("profile.title", "en", name="Ada") == "Ada's profile"
    assert t("profile.title", "fr", name="Ada") == "Profil de Ada"
    assert t("profile.title", "de", name="Ada") == "Profil de Ada"
    assert format_int(25000, "en") == "25,000"
    assert format_int(25000, "fr") == "25\u202f000"


def test_decimals_use_each_languages_mark() -> None:
    assert format_decimal(12.5, "fr") == "12,5"
    assert format_decimal(12.5, "en") == "12.5"
    assert format_decimal(3.0, "fr") == "3"
    assert format_decimal(0.416666, "fr", ".2f") == "0,42"
